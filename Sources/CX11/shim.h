#ifndef CX11_SHIM_H
#define CX11_SHIM_H

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/Xresource.h>
#include <X11/keysym.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/XInput.h>
#include <X11/extensions/XShm.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <poll.h>

// XISetMask and XIMaskLen are function-like macros, which Swift cannot import.
static inline int cx11_xi_mask_len(void) { return XIMaskLen(XI_LASTEVENT); }
static inline void cx11_xi_set_mask(unsigned char *mask, int event) { XISetMask(mask, event); }

// XDestroyImage is a macro too. This one frees an XImage whose pixels belong to someone else (the Cairo canvas).
static inline void cx11_destroy_image_keeping_pixels(XImage *image) {
    image->data = NULL;
    XDestroyImage(image);
}

// XI 2 has no proximity events: a tablet's pen leaving the tablet's reach is told only by XI 1's ProximityOut, whose
// event class and type come from the ProximityOut macro (it reads the device's class table). Selects `device`'s
// ProximityOut on `window` and returns the event type it arrives as; 0 when the device has no proximity class or
// the selection failed.
static inline int cx11_select_proximity_out(Display *display, Window window, XDevice *device) {
    XEventClass event_class = 0;
    int type = 0;
    ProximityOut(device, type, event_class);
    if (type == 0) return 0;
    if (XSelectExtensionEvent(display, window, &event_class, 1) != Success) return 0;
    return type;
}

#endif
