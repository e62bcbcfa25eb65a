#ifndef CPANGO_SHIM_H
#define CPANGO_SHIM_H

// Pango lays text out for Cairo: font fallback through fontconfig, shaping through HarfBuzz, bidirectional text.
// Its include paths come from `pkg-config --cflags-only-I pangocairo` in Package.swift (see there why).
#include <pango/pangocairo.h>

#endif
