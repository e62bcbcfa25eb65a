// A Wayland drag source for the end-to-end tests, as a file manager is one: a window of its own; the first
// pointer button pressed on it starts a drag (wl_data_device.start_drag) offering text/uri-list with the copy
// action, and the window then takes no more pointer input (an empty input region), so the window beneath it is
// where the drag goes. Each request for the data is answered with the list given as argv[1].
//
// It reports on stdout, one word a line: ready (its window is shown), entered (the pointer is over it), left (it is
// no longer), dragging, sent, dropped (the target took the drop), finished (the target finished it: exit 0),
// cancelled (exit 1).
//
// The window is large (320x240) so that a test's pointer, which learns where the shell put it only from "entered",
// is still over it when the word arrives however loaded the machine is: 40 steps of 8 px.
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"

static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct wl_seat *seat;
static struct wl_data_device_manager *manager;
static struct xdg_wm_base *wm_base;
static struct wl_surface *surface;
static struct wl_data_device *device;
static const char *list;
static int configured, dragging, done, status = 1;
static int width = 320, height = 240;

static void say(const char *word) {
    printf("%s\n", word);
    fflush(stdout);
}

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                   uint32_t version) {
    (void)data;
    (void)version;
    if (strcmp(interface, "wl_compositor") == 0)
        compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 4);
    else if (strcmp(interface, "wl_shm") == 0)
        shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
    else if (strcmp(interface, "wl_seat") == 0 && !seat)
        seat = wl_registry_bind(registry, name, &wl_seat_interface, 5);
    else if (strcmp(interface, "wl_data_device_manager") == 0)
        manager = wl_registry_bind(registry, name, &wl_data_device_manager_interface, 3);
    else if (strcmp(interface, "xdg_wm_base") == 0)
        wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data;
    (void)registry;
    (void)name;
}

static const struct wl_registry_listener registry_listener = {global, global_remove};

static void ping(void *data, struct xdg_wm_base *base, uint32_t serial) {
    (void)data;
    xdg_wm_base_pong(base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {ping};

/// A white buffer of the window's size.
static struct wl_buffer *white_buffer(void) {
    int stride = width * 4, size = stride * height;
    int fd = memfd_create("touchtracker-drag-source", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, size) < 0) return NULL;
    void *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (pixels == MAP_FAILED) return NULL;
    memset(pixels, 0xff, size);
    munmap(pixels, size);
    struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, size);
    struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, width, height, stride, WL_SHM_FORMAT_XRGB8888);
    wl_shm_pool_destroy(pool);
    close(fd);
    return buffer;
}

static void surface_configure(void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
    (void)data;
    xdg_surface_ack_configure(xdg_surface, serial);
    if (configured || dragging) return;
    configured = 1;
    wl_surface_attach(surface, white_buffer(), 0, 0);
    wl_surface_damage(surface, 0, 0, width, height);
    wl_surface_commit(surface);
    say("ready");
}

static const struct xdg_surface_listener xdg_surface_listener = {surface_configure};

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t w, int32_t h,
                               struct wl_array *states) {
    (void)data;
    (void)toplevel;
    (void)states;
    if (w > 0 && h > 0) {
        width = w;
        height = h;
    }
}

static void toplevel_close(void *data, struct xdg_toplevel *toplevel) {
    (void)data;
    (void)toplevel;
}

// Designated: the events of later versions than the ones bound are never sent.
static const struct xdg_toplevel_listener toplevel_listener = {.configure = toplevel_configure,
                                                               .close = toplevel_close};

static void source_target(void *data, struct wl_data_source *source, const char *mime_type) {
    (void)data;
    (void)source;
    (void)mime_type;
}

static void source_send(void *data, struct wl_data_source *source, const char *mime_type, int32_t fd) {
    (void)data;
    (void)source;
    if (strcmp(mime_type, "text/uri-list") == 0) {
        size_t length = strlen(list), written = 0;
        while (written < length) {
            ssize_t count = write(fd, list + written, length - written);
            if (count <= 0) break;
            written += (size_t)count;
        }
        say("sent");
    }
    close(fd);
}

static void source_cancelled(void *data, struct wl_data_source *source) {
    (void)data;
    (void)source;
    say("cancelled");
    done = 1;
}

static void source_drop_performed(void *data, struct wl_data_source *source) {
    (void)data;
    (void)source;
    say("dropped");
}

static void source_finished(void *data, struct wl_data_source *source) {
    (void)data;
    (void)source;
    say("finished");
    status = 0;
    done = 1;
}

static void source_action(void *data, struct wl_data_source *source, uint32_t action) {
    (void)data;
    (void)source;
    (void)action;
}

static const struct wl_data_source_listener source_listener = {
    source_target, source_send, source_cancelled, source_drop_performed, source_finished, source_action};

static void pointer_enter(void *d, struct wl_pointer *p, uint32_t s, struct wl_surface *f, wl_fixed_t x, wl_fixed_t y) {
    (void)d, (void)p, (void)s, (void)f, (void)x, (void)y;
    say("entered");
}
static void pointer_leave(void *d, struct wl_pointer *p, uint32_t s, struct wl_surface *f) {
    (void)d, (void)p, (void)s, (void)f;
    if (!dragging) say("left");
}
static void pointer_motion(void *d, struct wl_pointer *p, uint32_t t, wl_fixed_t x, wl_fixed_t y) {
    (void)d, (void)p, (void)t, (void)x, (void)y;
}

static void pointer_button(void *data, struct wl_pointer *pointer, uint32_t serial, uint32_t time, uint32_t button,
                           uint32_t state) {
    (void)data;
    (void)pointer;
    (void)time;
    (void)button;
    if (state != WL_POINTER_BUTTON_STATE_PRESSED || dragging) return;
    dragging = 1;
    struct wl_data_source *source = wl_data_device_manager_create_data_source(manager);
    wl_data_source_add_listener(source, &source_listener, NULL);
    wl_data_source_offer(source, "text/uri-list");
    wl_data_source_set_actions(source, WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY);
    wl_data_device_start_drag(device, source, surface, NULL, serial);
    // Out of the way: with no input region the window takes no pointer, so the drag goes on over what lies beneath.
    struct wl_region *none = wl_compositor_create_region(compositor);
    wl_surface_set_input_region(surface, none);
    wl_region_destroy(none);
    wl_surface_commit(surface);
    say("dragging");
}

static void pointer_axis(void *d, struct wl_pointer *p, uint32_t t, uint32_t a, wl_fixed_t v) {
    (void)d, (void)p, (void)t, (void)a, (void)v;
}
static void pointer_frame(void *d, struct wl_pointer *p) { (void)d, (void)p; }
static void pointer_axis_source(void *d, struct wl_pointer *p, uint32_t s) { (void)d, (void)p, (void)s; }
static void pointer_axis_stop(void *d, struct wl_pointer *p, uint32_t t, uint32_t a) {
    (void)d, (void)p, (void)t, (void)a;
}
static void pointer_axis_discrete(void *d, struct wl_pointer *p, uint32_t a, int32_t v) {
    (void)d, (void)p, (void)a, (void)v;
}

static const struct wl_pointer_listener pointer_listener = {
    .enter = pointer_enter, .leave = pointer_leave, .motion = pointer_motion, .button = pointer_button,
    .axis = pointer_axis, .frame = pointer_frame, .axis_source = pointer_axis_source, .axis_stop = pointer_axis_stop,
    .axis_discrete = pointer_axis_discrete};

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: touchtracker-drag-source URI-LIST\n");
        return 2;
    }
    list = argv[1];
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) {
        fprintf(stderr, "touchtracker-drag-source: cannot connect to the compositor\n");
        return 2;
    }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!compositor || !shm || !seat || !manager || !wm_base) {
        fprintf(stderr, "touchtracker-drag-source: the compositor lacks a global it needs\n");
        return 2;
    }
    xdg_wm_base_add_listener(wm_base, &wm_base_listener, NULL);
    device = wl_data_device_manager_get_data_device(manager, seat);
    wl_pointer_add_listener(wl_seat_get_pointer(seat), &pointer_listener, NULL);
    surface = wl_compositor_create_surface(compositor);
    struct xdg_surface *xdg_surface = xdg_wm_base_get_xdg_surface(wm_base, surface);
    xdg_surface_add_listener(xdg_surface, &xdg_surface_listener, NULL);
    struct xdg_toplevel *toplevel = xdg_surface_get_toplevel(xdg_surface);
    xdg_toplevel_add_listener(toplevel, &toplevel_listener, NULL);
    xdg_toplevel_set_title(toplevel, "drag source");
    wl_surface_commit(surface);
    while (!done && wl_display_dispatch(display) != -1) {
    }
    wl_display_disconnect(display);
    return status;
}
