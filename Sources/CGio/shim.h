#ifndef CGIO_SHIM_H
#define CGIO_SHIM_H

// GLib's D-Bus (GDBus), for the accessibility bridge: AT-SPI 2 spoken directly over D-Bus, as GTK 4 does. Its
// include paths come from `pkg-config --cflags-only-I gio-2.0` in Package.swift (as Pango's do, and for the same
// reason: the full flags carry -pthread).
#include <gio/gio.h>

#endif
