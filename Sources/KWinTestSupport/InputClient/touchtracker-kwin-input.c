/*
 * The tests' fake-input client for KWin: listens on the Unix socket its one argument names, takes one connection,
 * and turns each command line it reads there into a request of KWin's own fake-input protocol
 * (org_kde_kwin_fake_input, plasma-wayland-protocols' fake-input.xml), which KWin injects as if a device of its own
 * had made it. Answers go back on the connection, one line each:
 *
 *   touch down ID X Y | touch motion ID X Y | touch up ID | touch frame | touch cancel
 *   pointer motion X Y              absolute, KWin's global logical coordinates
 *   pointer button left|right|middle press|release
 *   pointer axis vertical|horizontal VALUE
 *   key CODE press|release          Linux evdev code
 *   sync                            answers "ok" once KWin has handled every request before it (a roundtrip)
 *   token [APP_ID]                  an xdg-activation token KWin issues: answers "token TEXT"
 *   screenshot X Y W H FILE         KWin's ScreenShot2 D-Bus CaptureArea (logical area, native resolution): the raw
 *                                   pixels go to FILE, the answer is "screenshot WIDTH HEIGHT STRIDE FORMAT SCALE"
 *
 * A command that fails answers "error ..." at once; the others answer nothing (sync says when they are done).
 * KWin offers the fake-input global, the privilege to get tokens with no surface and ScreenShot2 only to programs a
 * .desktop file names (X-KDE-Wayland-Interfaces, X-KDE-DBUS-Restricted-Interfaces, matched by executable path): the
 * harness writes that file. The socket appears once the protocol is bound and authenticated; before that a failure
 * is written to standard error and the program exits 1. It exits when the connection ends.
 *
 * Built by the harness at run time (KWinTestSupport/FakeInputClient.swift) with code wayland-scanner generates
 * from the XML installed on the machine.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <wayland-client.h>

#include "fake-input-client-protocol.h"
#include "xdg-activation-v1-client-protocol.h"

static struct wl_display *display;
static struct org_kde_kwin_fake_input *fake_input;
static uint32_t fake_input_version;
static struct xdg_activation_v1 *activation;
/* The connection answers go to (standard error until there is one). */
static FILE *answers;

static void global_added(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                         uint32_t version) {
    (void)data;
    if (strcmp(interface, org_kde_kwin_fake_input_interface.name) == 0) {
        fake_input_version = version < 4 ? version : 4;
        fake_input = wl_registry_bind(registry, name, &org_kde_kwin_fake_input_interface, fake_input_version);
    } else if (strcmp(interface, xdg_activation_v1_interface.name) == 0) {
        activation = wl_registry_bind(registry, name, &xdg_activation_v1_interface, 1);
    }
}

static void global_removed(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data;
    (void)registry;
    (void)name;
}

static const struct wl_registry_listener registry_listener = {global_added, global_removed};

static void answer(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void answer(const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    FILE *to = answers ? answers : stderr;
    vfprintf(to, format, arguments);
    va_end(arguments);
    fputc('\n', to);
    fflush(to);
}

/* Ends the program when the connection to KWin is gone: every later command would fail the same way. */
static void check_connection(void) {
    if (wl_display_get_error(display) != 0) {
        answer("error the connection to KWin failed: %s", strerror(wl_display_get_error(display)));
        exit(1);
    }
}

struct token_wait {
    char *token;
};

static void token_done(void *data, struct xdg_activation_token_v1 *token, const char *text) {
    (void)token;
    ((struct token_wait *)data)->token = strdup(text);
}

static const struct xdg_activation_token_v1_listener token_listener = {token_done};

static void request_token(const char *app_id) {
    if (!activation) {
        answer("error KWin offers no xdg_activation_v1");
        return;
    }
    struct token_wait wait = {NULL};
    struct xdg_activation_token_v1 *token = xdg_activation_v1_get_activation_token(activation);
    xdg_activation_token_v1_add_listener(token, &token_listener, &wait);
    if (app_id && *app_id) xdg_activation_token_v1_set_app_id(token, app_id);
    xdg_activation_token_v1_commit(token);
    while (!wait.token && wl_display_dispatch(display) >= 0) {
    }
    xdg_activation_token_v1_destroy(token);
    check_connection();
    answer("token %s", wait.token);
    free(wait.token);
}

/* KWin's ScreenShot2: CaptureArea writes the image's raw pixels into the pipe it is given and answers their layout
 * (width, height, stride, QImage format, scale). */
static void screenshot(int x, int y, unsigned width, unsigned height, const char *path) {
    GError *error = NULL;
    GDBusConnection *bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
    if (!bus) {
        answer("error no session bus: %s", error->message);
        g_error_free(error);
        return;
    }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        answer("error pipe: %s", strerror(errno));
        g_object_unref(bus);
        return;
    }
    GUnixFDList *list = g_unix_fd_list_new_from_array(&fds[1], 1);
    GVariantBuilder options;
    g_variant_builder_init(&options, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&options, "{sv}", "native-resolution", g_variant_new_boolean(TRUE));
    g_variant_builder_add(&options, "{sv}", "include-cursor", g_variant_new_boolean(FALSE));
    GVariant *reply = g_dbus_connection_call_with_unix_fd_list_sync(
        bus, "org.kde.KWin", "/org/kde/KWin/ScreenShot2", "org.kde.KWin.ScreenShot2", "CaptureArea",
        g_variant_new("(iiuua{sv}h)", x, y, width, height, &options, 0), G_VARIANT_TYPE("(a{sv})"),
        G_DBUS_CALL_FLAGS_NONE, 30000, list, NULL, NULL, &error);
    g_object_unref(list);
    if (!reply) {
        answer("error CaptureArea: %s", error->message);
        g_error_free(error);
        close(fds[0]);
        g_object_unref(bus);
        return;
    }
    guint32 image_width = 0, image_height = 0, stride = 0, format = 0;
    gdouble scale = 1;
    GVariant *results = g_variant_get_child_value(reply, 0);
    g_variant_lookup(results, "width", "u", &image_width);
    g_variant_lookup(results, "height", "u", &image_height);
    g_variant_lookup(results, "stride", "u", &stride);
    g_variant_lookup(results, "format", "u", &format);
    g_variant_lookup(results, "scale", "d", &scale);
    g_variant_unref(results);
    g_variant_unref(reply);
    g_object_unref(bus);
    FILE *file = fopen(path, "wb");
    if (!file) {
        answer("error %s: %s", path, strerror(errno));
        close(fds[0]);
        return;
    }
    /* KWin writes the pixels from a thread after answering, then closes its end: read to end of file. */
    char buffer[65536];
    size_t total = 0;
    ssize_t got;
    while ((got = read(fds[0], buffer, sizeof buffer)) != 0) {
        if (got < 0) {
            if (errno == EINTR) continue;
            break;
        }
        fwrite(buffer, 1, (size_t)got, file);
        total += (size_t)got;
    }
    close(fds[0]);
    fclose(file);
    if (total != (size_t)stride * image_height) {
        answer("error the screenshot has %zu bytes, not %u x %u", total, stride, image_height);
        return;
    }
    answer("screenshot %u %u %u %u %g", image_width, image_height, stride, format, scale);
}

static int parse_button(const char *name) {
    if (strcmp(name, "left") == 0) return 0x110;   /* BTN_LEFT */
    if (strcmp(name, "right") == 0) return 0x111;  /* BTN_RIGHT */
    if (strcmp(name, "middle") == 0) return 0x112; /* BTN_MIDDLE */
    return -1;
}

static int parse_state(const char *name) {
    if (strcmp(name, "press") == 0) return 1;
    if (strcmp(name, "release") == 0) return 0;
    return -1;
}

static void run(char *line) {
    char word1[32] = "", word2[32] = "", word3[32] = "", file[4096] = "";
    unsigned id;
    double x, y, value;
    int code, left, top;
    unsigned width, height;
    if (sscanf(line, "touch down %u %lf %lf", &id, &x, &y) == 3) {
        org_kde_kwin_fake_input_touch_down(fake_input, id, wl_fixed_from_double(x), wl_fixed_from_double(y));
    } else if (sscanf(line, "touch motion %u %lf %lf", &id, &x, &y) == 3) {
        org_kde_kwin_fake_input_touch_motion(fake_input, id, wl_fixed_from_double(x), wl_fixed_from_double(y));
    } else if (sscanf(line, "touch up %u", &id) == 1) {
        org_kde_kwin_fake_input_touch_up(fake_input, id);
    } else if (strcmp(line, "touch frame") == 0) {
        org_kde_kwin_fake_input_touch_frame(fake_input);
    } else if (strcmp(line, "touch cancel") == 0) {
        org_kde_kwin_fake_input_touch_cancel(fake_input);
    } else if (sscanf(line, "pointer motion %lf %lf", &x, &y) == 2) {
        org_kde_kwin_fake_input_pointer_motion_absolute(fake_input, wl_fixed_from_double(x), wl_fixed_from_double(y));
    } else if (sscanf(line, "pointer button %31s %31s", word1, word2) == 2 && parse_button(word1) >= 0 &&
               parse_state(word2) >= 0) {
        org_kde_kwin_fake_input_button(fake_input, (uint32_t)parse_button(word1), (uint32_t)parse_state(word2));
    } else if (sscanf(line, "pointer axis %31s %lf", word1, &value) == 2 &&
               (strcmp(word1, "vertical") == 0 || strcmp(word1, "horizontal") == 0)) {
        org_kde_kwin_fake_input_axis(fake_input, strcmp(word1, "vertical") == 0 ? 0 : 1, wl_fixed_from_double(value));
    } else if (sscanf(line, "key %d %31s", &code, word1) == 2 && parse_state(word1) >= 0) {
        if (fake_input_version < 4) {
            answer("error KWin's fake input is version %u: keys need version 4", fake_input_version);
            return;
        }
        org_kde_kwin_fake_input_keyboard_key(fake_input, (uint32_t)code, (uint32_t)parse_state(word1));
    } else if (strcmp(line, "sync") == 0) {
        wl_display_roundtrip(display);
        check_connection();
        answer("ok");
        return;
    } else if (strcmp(line, "token") == 0 || sscanf(line, "token %31s", word3) == 1) {
        request_token(word3);
        return;
    } else if (sscanf(line, "screenshot %d %d %u %u %4095s", &left, &top, &width, &height, file) == 5) {
        screenshot(left, top, width, height, file);
        return;
    } else {
        answer("error unknown command: %s", line);
        return;
    }
    if (wl_display_flush(display) < 0 && errno != EAGAIN) check_connection();
}

int main(int argc, char **argv) {
    if (argc != 2) {
        answer("usage: %s SOCKET_PATH", argv[0]);
        return 2;
    }
    display = wl_display_connect(NULL);
    if (!display) {
        answer("error cannot connect to the Wayland display: %s", strerror(errno));
        return 1;
    }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!fake_input) {
        answer("error KWin offers no org_kde_kwin_fake_input to this program (is it named in a .desktop file with "
               "X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input?)");
        return 1;
    }
    org_kde_kwin_fake_input_authenticate(fake_input, "TouchTracker tests", "drives the app under test");
    wl_display_roundtrip(display);
    check_connection();

    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(argv[1]) >= sizeof address.sun_path) {
        answer("error the socket path is too long: %s", argv[1]);
        return 1;
    }
    strcpy(address.sun_path, argv[1]);
    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 1) != 0) {
        answer("error cannot listen on %s: %s", argv[1], strerror(errno));
        return 1;
    }
    int connection;
    while ((connection = accept4(listener, NULL, NULL, SOCK_CLOEXEC)) < 0 && errno == EINTR) {
    }
    if (connection < 0) {
        answer("error accept: %s", strerror(errno));
        return 1;
    }
    close(listener);
    unlink(argv[1]);
    FILE *commands = fdopen(connection, "r");
    answers = fdopen(dup(connection), "w");
    if (!commands || !answers) {
        answer("error fdopen: %s", strerror(errno));
        return 1;
    }
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    while ((length = getline(&line, &capacity, commands)) > 0) {
        if (line[length - 1] == '\n') line[length - 1] = 0;
        run(line);
    }
    free(line);
    wl_display_disconnect(display);
    return 0;
}
