// The Linux calls the Wayland host needs that glibc declares only under _GNU_SOURCE, which Swift's Glibc module
// is imported without: memfd_create for wl_shm pools, accept4 and SO_PEERCRED for the activation channel.
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/socket.h>
#include "CWayland.h"

int cwayland_memfd_create(const char *name) {
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

int cwayland_accept_nonblocking(int fd) {
    return accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
}

int cwayland_peer_uid(int fd, uid_t *uid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *uid = credentials.uid;
    return 0;
}
