#ifndef CCAIRO_SHIM_H
#define CCAIRO_SHIM_H

// Text uses Cairo's own font API (FreeType + fontconfig, antialiased). Pango is left out on purpose: its
// pkg-config flags carry -pthread (through harfbuzz), which SwiftPM rejects with a warning on every build.
#include <cairo.h>
#include <cairo-xlib.h>
#include <cairo-svg.h>
#include <cairo-pdf.h>

#endif
