/*
 * touchtracker-test-input: a weston 10 module that gives the compositor a seat
 * of its own ("touchtracker-test", with touch, pointer and keyboard) and feeds
 * it from a Unix socket, so end-to-end tests can send real wl_touch,
 * wl_pointer and wl_keyboard events to clients (Xwayland's included) of a
 * headless weston, which has no input devices at all.
 *
 * Load it with `weston --modules=/abs/path/touchtracker-test-input.so` and the
 * socket path in TOUCHTRACKER_TEST_INPUT_SOCKET. Clients (any number, each
 * its own stream) send newline-terminated commands:
 *
 *   touch down ID X Y          touch motion ID X Y        touch up ID
 *   touch frame                touch cancel
 *   pointer motion X Y         pointer frame
 *   pointer button left|right|middle press|release
 *   pointer axis vertical|horizontal VALUE [DISCRETE]
 *   key CODE press|release     (CODE: a Linux evdev keycode, 30 is KEY_A)
 *   sync                       (answers "ok")
 *
 * X and Y are global compositor coordinates in pixels (the output of the
 * headless backend sits at 0,0). A command that succeeds says nothing; one
 * that fails answers "error <why>"; blank lines are ignored. Commands run in
 * order as they arrive, so the "ok" of a sync comes after the answers of
 * every earlier command: a client that reads up to it learns of every earlier
 * failure. A client that leaves its answers unread is not read either until
 * they are out; the compositor never blocks on it.
 *
 * Nothing adds frames by itself: like a libinput device, send "touch frame"
 * after a group of touch events and "pointer frame" after pointer events
 * (Xwayland, for one, acts on a wl_pointer motion only at its frame).
 */

#define _GNU_SOURCE /* accept4 */

#include <errno.h>
#include <limits.h>
#include <linux/input-event-codes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <libweston/libweston.h>
#include <wayland-server.h>

/*
 * libweston 10 exports these for backends but installs no header declaring
 * them; the prototypes are copied from weston 10.0.1's private
 * libweston/backend.h and libweston/libweston-internal.h (between 9.0 and
 * 10.0, weston_seat_init_touch went from void to int: check again on a new
 * libweston).
 */
struct weston_point2d_device_normalized;

void weston_seat_init(struct weston_seat *seat, struct weston_compositor *ec, const char *seat_name);
void weston_seat_release(struct weston_seat *seat);
int weston_seat_init_pointer(struct weston_seat *seat);
int weston_seat_init_keyboard(struct weston_seat *seat, struct xkb_keymap *keymap);
int weston_seat_init_touch(struct weston_seat *seat);
struct weston_touch_device *weston_touch_create_touch_device(struct weston_touch *touch, const char *syspath,
							     void *backend_data,
							     const struct weston_touch_device_ops *ops);
void weston_touch_device_destroy(struct weston_touch_device *device);
void notify_touch_normalized(struct weston_touch_device *device, const struct timespec *time, int touch_id,
			     double x, double y, const struct weston_point2d_device_normalized *norm,
			     int touch_type);
void notify_touch_frame(struct weston_touch_device *device);
void notify_touch_cancel(struct weston_touch_device *device);
void notify_motion_absolute(struct weston_seat *seat, const struct timespec *time, double x, double y);
void notify_button(struct weston_seat *seat, const struct timespec *time, int32_t button,
		   enum wl_pointer_button_state state);
void notify_axis(struct weston_seat *seat, const struct timespec *time, struct weston_pointer_axis_event *event);
void notify_axis_source(struct weston_seat *seat, uint32_t source);
void notify_pointer_frame(struct weston_seat *seat);
void notify_key(struct weston_seat *seat, const struct timespec *time, uint32_t key,
		enum wl_keyboard_key_state state, enum weston_key_state_update update_state);

/* weston's module entry point (declared in weston/weston.h, which drags in more than this needs). */
WL_EXPORT int wet_module_init(struct weston_compositor *compositor, int *argc, char *argv[]);

#define SOCKET_ENVIRONMENT_VARIABLE "TOUCHTRACKER_TEST_INPUT_SOCKET"
#define SEAT_NAME "touchtracker-test"
/* A command line never comes near this; a longer one is answered with an error and skipped. */
#define LINE_CAPACITY 512
/* The longest answer (a usage text is under 200 bytes). */
#define ANSWER_CAPACITY 256
/* The most words a command has ("touch down ID X Y"), plus one to notice extra words. */
#define MAX_WORDS 6

struct test_input {
	struct weston_compositor *compositor;
	struct weston_seat seat;
	struct weston_touch_device *touch_device;
	char *socket_path;
	int listen_fd;
	struct wl_event_source *listen_source;
	struct wl_list clients; /* struct client::link */
	struct wl_listener compositor_destroy;
};

struct client {
	struct test_input *input;
	struct wl_list link;
	int fd;
	struct wl_event_source *source;
	char input_buffer[LINE_CAPACITY];
	size_t input_length; /* bytes received and not executed yet */
	bool discarding;     /* inside an overlong line, dropped up to its newline */
	char answer[ANSWER_CAPACITY];
	size_t answer_length; /* bytes of the last answer not sent yet */
};

/* MARK: Answers */

/* Sends what is left of the client's answer, as much as its socket takes now; false if the client is gone. */
static bool
flush_answer(struct client *client)
{
	while (client->answer_length > 0) {
		ssize_t sent = send(client->fd, client->answer, client->answer_length, MSG_DONTWAIT | MSG_NOSIGNAL);

		if (sent < 0 && errno == EINTR)
			continue;
		if (sent < 0)
			return errno == EAGAIN; /* the rest goes out when the socket is writable */
		client->answer_length -= (size_t)sent;
		memmove(client->answer, client->answer + sent, client->answer_length);
	}
	return true;
}

/*
 * Answers one line (the newline is added). A command line runs only once the
 * previous answer is out (see client_run), so the buffer is free, and the
 * compositor never blocks on a client that does not read.
 */
static bool
reply(struct client *client, const char *format, ...)
{
	va_list arguments;
	int length;

	va_start(arguments, format);
	length = vsnprintf(client->answer, sizeof client->answer - 1, format, arguments);
	va_end(arguments);
	if (length < 0)
		return false;
	if ((size_t)length > sizeof client->answer - 2)
		length = sizeof client->answer - 2; /* cut, as vsnprintf did */
	client->answer[length] = '\n';
	client->answer_length = (size_t)length + 1;
	return flush_answer(client);
}

/* MARK: Parsing */

static bool
parse_double(const char *word, double *value)
{
	char *end;

	errno = 0;
	*value = strtod(word, &end);
	return end != word && *end == '\0' && errno == 0 && isfinite(*value);
}

static bool
parse_int(const char *word, long min, long max, long *value)
{
	char *end;

	errno = 0;
	*value = strtol(word, &end, 10);
	return end != word && *end == '\0' && errno == 0 && *value >= min && *value <= max;
}

/* "press" or "release" into *pressed. */
static bool
parse_press(const char *word, bool *pressed)
{
	if (strcmp(word, "press") == 0)
		*pressed = true;
	else if (strcmp(word, "release") == 0)
		*pressed = false;
	else
		return false;
	return true;
}

/* MARK: Commands */

/*
 * Each returns NULL when the command ran, or why it did not (the text of the
 * error reply). `words` holds `count` words; words[0] is the command's first.
 */

static const char *
touch_command(struct test_input *input, char **words, int count, const struct timespec *time)
{
	long id;
	double x, y;

	if (count == 2 && strcmp(words[1], "frame") == 0) {
		notify_touch_frame(input->touch_device);
		return NULL;
	}
	if (count == 2 && strcmp(words[1], "cancel") == 0) {
		notify_touch_cancel(input->touch_device);
		return NULL;
	}
	if (count == 3 && strcmp(words[1], "up") == 0) {
		if (!parse_int(words[2], 0, INT_MAX, &id))
			return "touch up: ID must be an integer >= 0";
		notify_touch_normalized(input->touch_device, time, (int)id, 0, 0, NULL, WL_TOUCH_UP);
		return NULL;
	}
	if (count == 5 && (strcmp(words[1], "down") == 0 || strcmp(words[1], "motion") == 0)) {
		if (!parse_int(words[2], 0, INT_MAX, &id))
			return "touch: ID must be an integer >= 0";
		if (!parse_double(words[3], &x) || !parse_double(words[4], &y))
			return "touch: X and Y must be finite numbers";
		/* No calibration ops on this device, so no normalized point: weston asserts that. */
		notify_touch_normalized(input->touch_device, time, (int)id, x, y, NULL,
					words[1][0] == 'd' ? WL_TOUCH_DOWN : WL_TOUCH_MOTION);
		return NULL;
	}
	return "usage: touch down|motion ID X Y, touch up ID, touch frame, touch cancel";
}

static const char *
pointer_command(struct test_input *input, char **words, int count, const struct timespec *time)
{
	if (count == 2 && strcmp(words[1], "frame") == 0) {
		notify_pointer_frame(&input->seat);
		return NULL;
	}
	if (count == 4 && strcmp(words[1], "motion") == 0) {
		double x, y;

		if (!parse_double(words[2], &x) || !parse_double(words[3], &y))
			return "pointer motion: X and Y must be finite numbers";
		notify_motion_absolute(&input->seat, time, x, y);
		return NULL;
	}
	if (count == 4 && strcmp(words[1], "button") == 0) {
		int32_t button;
		bool pressed;

		if (strcmp(words[2], "left") == 0)
			button = BTN_LEFT;
		else if (strcmp(words[2], "right") == 0)
			button = BTN_RIGHT;
		else if (strcmp(words[2], "middle") == 0)
			button = BTN_MIDDLE;
		else
			return "pointer button: the button must be left, right or middle";
		if (!parse_press(words[3], &pressed))
			return "pointer button: the state must be press or release";
		notify_button(&input->seat, time, button,
			      pressed ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED);
		return NULL;
	}
	if ((count == 4 || count == 5) && strcmp(words[1], "axis") == 0) {
		struct weston_pointer_axis_event event = {0};
		long discrete = 0;

		if (strcmp(words[2], "vertical") == 0)
			event.axis = WL_POINTER_AXIS_VERTICAL_SCROLL;
		else if (strcmp(words[2], "horizontal") == 0)
			event.axis = WL_POINTER_AXIS_HORIZONTAL_SCROLL;
		else
			return "pointer axis: the axis must be vertical or horizontal";
		if (!parse_double(words[3], &event.value))
			return "pointer axis: VALUE must be a finite number";
		if (count == 5 && !parse_int(words[4], INT32_MIN, INT32_MAX, &discrete))
			return "pointer axis: DISCRETE must be an integer";
		if (count == 5) {
			/* Wheel clicks come with their source, as libinput's wheels do. */
			event.has_discrete = true;
			event.discrete = (int32_t)discrete;
			notify_axis_source(&input->seat, WL_POINTER_AXIS_SOURCE_WHEEL);
		}
		notify_axis(&input->seat, time, &event);
		return NULL;
	}
	return "usage: pointer motion X Y, pointer button left|right|middle press|release, "
	       "pointer axis vertical|horizontal VALUE [DISCRETE], pointer frame";
}

static const char *
key_command(struct test_input *input, char **words, int count, const struct timespec *time)
{
	long code;
	bool pressed;

	if (count != 3)
		return "usage: key CODE press|release";
	if (!parse_int(words[1], 1, KEY_MAX, &code))
		return "key: CODE must be a Linux keycode from 1 to KEY_MAX";
	if (!parse_press(words[2], &pressed))
		return "key: the state must be press or release";
	/* AUTOMATIC: weston updates the modifier state from the key, as for a real keyboard. */
	notify_key(&input->seat, time, (uint32_t)code,
		   pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED,
		   STATE_UPDATE_AUTOMATIC);
	return NULL;
}

/* Runs one command line (without its newline); false if the client must be dropped. */
static bool
execute(struct client *client, char *line)
{
	struct test_input *input = client->input;
	char *words[MAX_WORDS];
	char *save = NULL;
	const char *error;
	struct timespec time;
	int count = 0;

	for (char *word = strtok_r(line, " \t\r", &save); word; word = strtok_r(NULL, " \t\r", &save)) {
		if (count == MAX_WORDS)
			return reply(client, "error too many words");
		words[count++] = word;
	}
	if (count == 0)
		return true; /* blank lines are allowed */

	weston_compositor_get_time(&time);
	if (strcmp(words[0], "sync") == 0) {
		if (count != 1)
			return reply(client, "error usage: sync");
		/*
		 * Every earlier command has run (they run as they are read). Writing
		 * out the events they queued makes "ok" mean that clients can read
		 * them now, not only once the compositor's loop comes round.
		 */
		wl_display_flush_clients(input->compositor->wl_display);
		return reply(client, "ok");
	}
	/* Each checks its word count before it reads words[1] and on. */
	if (strcmp(words[0], "touch") == 0)
		error = touch_command(input, words, count, &time);
	else if (strcmp(words[0], "pointer") == 0)
		error = pointer_command(input, words, count, &time);
	else if (strcmp(words[0], "key") == 0)
		error = key_command(input, words, count, &time);
	else
		error = "unknown command (touch, pointer, key or sync)";
	return error == NULL || reply(client, "error %s", error);
}

/* MARK: Connections */

static void
client_destroy(struct client *client)
{
	wl_event_source_remove(client->source);
	close(client->fd);
	wl_list_remove(&client->link);
	free(client);
}

/*
 * Executes the complete lines received, stopping at one whose answer cannot
 * be sent yet, and then reads the client again only once that answer is out:
 * a client that stops reading is not read either. False if the client must go.
 */
static bool
client_run(struct client *client)
{
	size_t start = 0;
	char *newline;

	while (client->answer_length == 0 &&
	       (newline = memchr(client->input_buffer + start, '\n', client->input_length - start))) {
		*newline = '\0';
		if (client->discarding)
			client->discarding = false; /* the end of an overlong line */
		else if (!execute(client, client->input_buffer + start))
			return false;
		start = (size_t)(newline - client->input_buffer) + 1;
	}
	client->input_length -= start;
	memmove(client->input_buffer, client->input_buffer + start, client->input_length);

	/*
	 * A full buffer without a newline: say so once, then drop the line's
	 * bytes up to its end (closing instead would reset the connection, the
	 * unread rest of the line taking the error answer with it).
	 */
	if (client->answer_length == 0 && client->input_length == sizeof client->input_buffer) {
		if (!client->discarding && !reply(client, "error line longer than %d bytes", LINE_CAPACITY - 1))
			return false;
		client->discarding = true;
		client->input_length = 0;
	}
	wl_event_source_fd_update(client->source, client->answer_length > 0 ? WL_EVENT_WRITABLE : WL_EVENT_READABLE);
	return true;
}

static int
client_event(int fd, uint32_t mask, void *data)
{
	struct client *client = data;

	if (mask & WL_EVENT_WRITABLE && !flush_answer(client))
		goto gone;
	if (mask & WL_EVENT_READABLE) {
		/* There is room: client_run leaves no full buffer while it waits to read. */
		ssize_t received = recv(fd, client->input_buffer + client->input_length,
					sizeof client->input_buffer - client->input_length, MSG_DONTWAIT);

		if (received == 0 || (received < 0 && errno != EAGAIN && errno != EINTR))
			goto gone; /* end of file or an error: the client is gone */
		if (received > 0)
			client->input_length += (size_t)received;
	} else if (mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR)) {
		goto gone;
	}
	if (client_run(client))
		return 0;
gone:
	client_destroy(client);
	return 0;
}

static int
listen_readable(int fd, uint32_t mask, void *data)
{
	struct test_input *input = data;
	struct client *client;
	int client_fd;

	(void)mask;
	client_fd = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (client_fd < 0) {
		weston_log("touchtracker-test-input: accept: %s\n", strerror(errno));
		return 0;
	}
	client = calloc(1, sizeof *client);
	if (client)
		client->source = wl_event_loop_add_fd(wl_display_get_event_loop(input->compositor->wl_display),
						      client_fd, WL_EVENT_READABLE, client_event, client);
	if (!client || !client->source) {
		weston_log("touchtracker-test-input: cannot take a client\n");
		free(client);
		close(client_fd);
		return 0;
	}
	client->input = input;
	client->fd = client_fd;
	wl_list_insert(&input->clients, &client->link);
	return 0;
}

/* Binds and listens on `path` (an old socket file there is replaced); -1 with errno set on failure. */
static int
listen_on(const char *path)
{
	struct sockaddr_un address = {.sun_family = AF_UNIX};
	int fd;

	if (strlen(path) >= sizeof address.sun_path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(address.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	unlink(path);
	if (bind(fd, (struct sockaddr *)&address, sizeof address) < 0 || listen(fd, 8) < 0) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

/* MARK: Lifetime */

static void
test_input_destroy(struct test_input *input)
{
	struct client *client, *next;

	wl_list_for_each_safe(client, next, &input->clients, link)
		client_destroy(client);
	if (input->listen_source)
		wl_event_source_remove(input->listen_source);
	if (input->listen_fd >= 0) {
		close(input->listen_fd);
		unlink(input->socket_path);
	}
	/* weston_touch_destroy (in weston_seat_release) asserts that no device is left. */
	if (input->touch_device)
		weston_touch_device_destroy(input->touch_device);
	weston_seat_release(&input->seat);
	free(input->socket_path);
	free(input);
}

static void
handle_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct test_input *input = wl_container_of(listener, input, compositor_destroy);

	(void)data;
	wl_list_remove(&input->compositor_destroy.link);
	test_input_destroy(input);
}

WL_EXPORT int
wet_module_init(struct weston_compositor *compositor, int *argc, char *argv[])
{
	const char *path = getenv(SOCKET_ENVIRONMENT_VARIABLE);
	struct test_input *input;

	(void)argc;
	(void)argv;
	if (!path || path[0] == '\0') {
		weston_log("touchtracker-test-input: set " SOCKET_ENVIRONMENT_VARIABLE "\n");
		return -1;
	}
	input = calloc(1, sizeof *input);
	if (!input)
		return -1;
	input->compositor = compositor;
	input->listen_fd = -1;
	wl_list_init(&input->clients);

	/* A real wl_seat with all three capabilities; NULL: the compositor's keymap. */
	weston_seat_init(&input->seat, compositor, SEAT_NAME);
	input->socket_path = strdup(path);
	if (weston_seat_init_pointer(&input->seat) < 0 || weston_seat_init_touch(&input->seat) < 0 ||
	    weston_seat_init_keyboard(&input->seat, NULL) < 0 || !input->socket_path)
		goto failed;
	/* Touch events come from a device of the seat's touch; no calibration ops. */
	input->touch_device = weston_touch_create_touch_device(input->seat.touch_state, SEAT_NAME "-touch", NULL,
							       NULL);
	if (!input->touch_device)
		goto failed;

	input->listen_fd = listen_on(path);
	if (input->listen_fd < 0) {
		weston_log("touchtracker-test-input: listening on %s: %s\n", path, strerror(errno));
		goto failed;
	}
	input->listen_source = wl_event_loop_add_fd(wl_display_get_event_loop(compositor->wl_display),
						    input->listen_fd, WL_EVENT_READABLE, listen_readable, input);
	if (!input->listen_source)
		goto failed;

	input->compositor_destroy.notify = handle_compositor_destroy;
	wl_signal_add(&compositor->destroy_signal, &input->compositor_destroy);
	weston_log("touchtracker-test-input: seat \"" SEAT_NAME "\", commands on %s\n", path);
	return 0;

failed:
	test_input_destroy(input);
	return -1;
}
