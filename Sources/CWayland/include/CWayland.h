// The Wayland host's C edge: libwayland-client and -cursor, libxkbcommon, libdecor, and the protocol code wayland-scanner generated from
// wayland-protocols' XML (regenerate.sh). Only TouchTrackerWayland imports it.
#ifndef CWAYLAND_H
#define CWAYLAND_H

#include <sys/types.h>
#include <wayland-client.h>
#include <wayland-cursor.h>
#include <xkbcommon/xkbcommon.h>
#include <libdecor.h>

#include "xdg-shell-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "presentation-time-client-protocol.h"
#include "fractional-scale-v1-client-protocol.h"
#include "xdg-activation-v1-client-protocol.h"
#include "xdg-decoration-unstable-v1-client-protocol.h"
#include "pointer-gestures-unstable-v1-client-protocol.h"
#include "tablet-unstable-v2-client-protocol.h"
#include "xdg-foreign-unstable-v2-client-protocol.h"


/// Binds global `name` of the registry as `interface` (its protocol name, e.g. "xdg_wm_base") at `version` or the
/// highest this code knows, whichever is lower; NULL for an interface the host does not use.
void *cwayland_bind(struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version);

/// An anonymous shared-memory file for wl_shm pools (close-on-exec), or -1 with errno set.
int cwayland_memfd_create(const char *name);

/// accept4 with SOCK_CLOEXEC | SOCK_NONBLOCK, or -1 with errno set.
int cwayland_accept_nonblocking(int fd);

/// The user id of the process at the other end of Unix socket `fd` (SO_PEERCRED); 0 on success, -1 otherwise.
int cwayland_peer_uid(int fd, uid_t *uid);

#endif
