/// The harness's D-Bus client of mutter, a Python 3 script run by Debian's python3 with GObject introspection's Gio
/// (python3-gi). Why a helper process and not `gdbus call`: mutter ends a remote desktop session when the D-Bus
/// connection that made it closes, so one connection must live as long as the test; and why Python: Gio builds the
/// nested GVariants DisplayConfig and the sessions take in one line each, where Swift would need C shims for
/// `g_variant_new`'s varargs.
///
/// Started as `python3 -c SCRIPT FIFO SCALE`, it
/// 1. waits for mutter's DisplayConfig, RemoteDesktop and ScreenCast on the session bus;
/// 2. sets the virtual monitor's scale with `DisplayConfig.ApplyMonitorsConfig` (temporary: no monitors.xml is
///    written), refusing a scale mutter does not offer for the monitor's mode;
/// 3. makes a remote desktop session, a screen cast session tied to it (`remote-desktop-session-id`) recording the
///    monitor (cursor hidden), starts it, and waits for the stream's PipeWire node;
/// 4. warms up mutter's virtual devices: mutter makes its virtual pointer, keyboard and touchscreen on their first
///    use and drops the event that made them, so one harmless event goes through each, away from any window;
/// 5. prints `ready NODE WIDTH HEIGHT SCALE`, then reads one command a line from FIFO and answers each with `ok` or
///    `error MESSAGE` on stdout once mutter has taken it (the method call returned).
///
/// Commands, coordinates in the stream's pixels (the monitor's): `touch-down SLOT X Y`, `touch-motion SLOT X Y`,
/// `touch-up SLOT`, `motion X Y`, `button CODE 1|0` (evdev button codes: 272 is the left button), `axis-discrete
/// AXIS STEPS` (wheel clicks; axis 0 vertical, 1 horizontal), `axis DX DY FLAGS` (smooth scrolling; flags 1 finish,
/// 2 wheel, 4 finger, 8 continuous), `key CODE 1|0` (evdev key codes), `keysym KEYSYM 1|0`, and `scale S` (the
/// monitor's new scale, as step 2). It exits at the FIFO's end of file, which ends both sessions.
enum RemoteDesktopHelper {
    static let script = #"""
        import os, sys, time
        from gi.repository import Gio, GLib

        fifo_path, wanted_scale = sys.argv[1], float(sys.argv[2])
        bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        DC, RD, SC = "org.gnome.Mutter.DisplayConfig", "org.gnome.Mutter.RemoteDesktop", "org.gnome.Mutter.ScreenCast"

        def call(dest, path, interface, method, args=None):
            return bus.call_sync(dest, path, interface, method, args, None, Gio.DBusCallFlags.NONE, 10000,
                                 None).unpack()

        def has_owner(name):
            return call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                        GLib.Variant("(s)", (name,)))[0]

        # mutter takes its names once the compositor is up; a busy machine starts it slowly.
        deadline = time.monotonic() + 60
        while not all(has_owner(name) for name in (DC, RD, SC)):
            if time.monotonic() > deadline:
                sys.exit("mutter never took %s, %s and %s on the session bus" % (DC, RD, SC))
            time.sleep(0.05)

        def display_state():
            serial, monitors, logical_monitors, properties = call(DC, "/org/gnome/Mutter/DisplayConfig", DC,
                                                                   "GetCurrentState")
            (connector, _, _, _), modes, _ = monitors[0]
            mode = next(mode for mode in modes if mode[6].get("is-current"))
            return serial, connector, mode, logical_monitors[0][2]

        def set_scale(wanted):
            serial, connector, mode, scale = display_state()
            mode_id, width, height, _, _, supported_scales, _ = mode
            if scale != wanted:
                if wanted not in supported_scales:
                    raise ValueError("mutter offers the scales %s for a %dx%d monitor, not %s"
                                     % (supported_scales, width, height, wanted))
                call(DC, "/org/gnome/Mutter/DisplayConfig", DC, "ApplyMonitorsConfig",
                     GLib.Variant("(uua(iiduba(ssa{sv}))a{sv})",
                                  (serial, 1, [(0, 0, wanted, 0, True, [(connector, mode_id, {})])], {})))
                serial, connector, mode, scale = display_state()
                if scale != wanted:
                    raise ValueError("mutter kept scale %s after being asked for %s" % (scale, wanted))
            return connector, width, height, scale

        try:
            connector, width, height, scale = set_scale(wanted_scale)
        except ValueError as error:
            sys.exit(str(error))

        session = call(RD, "/org/gnome/Mutter/RemoteDesktop", RD, "CreateSession")[0]
        session_id = call(RD, session, "org.freedesktop.DBus.Properties", "Get",
                          GLib.Variant("(ss)", (RD + ".Session", "SessionId")))[0]
        cast = call(SC, "/org/gnome/Mutter/ScreenCast", SC, "CreateSession",
                    GLib.Variant("(a{sv})", ({"remote-desktop-session-id": GLib.Variant("s", session_id)},)))[0]
        # Cursor mode 0: hidden, so frames show only the windows.
        stream = call(SC, cast, SC + ".Session", "RecordMonitor",
                      GLib.Variant("(sa{sv})", (connector, {"cursor-mode": GLib.Variant("u", 0)})))[0]
        nodes = []
        bus.signal_subscribe(SC, SC + ".Stream", "PipeWireStreamAdded", stream, None, Gio.DBusSignalFlags.NONE,
                             lambda *arguments: nodes.append(arguments[5].unpack()[0]))
        call(RD, session, RD + ".Session", "Start")
        context = GLib.MainContext.default()
        deadline = time.monotonic() + 30
        while not nodes:
            if time.monotonic() > deadline:
                sys.exit("the screen cast stream never reached PipeWire (is pipewire running?)")
            context.iteration(False)
            time.sleep(0.01)

        S = RD + ".Session"
        def notify(method, signature, *arguments):
            call(RD, session, S, method, GLib.Variant(signature, arguments))

        # Warm-up, in the bottom right corner: the first event through each virtual device is lost.
        corner = (float(width - 1), float(height - 1))
        for _ in range(2):
            notify("NotifyPointerMotionAbsolute", "(sdd)", stream, *corner)
            notify("NotifyKeyboardKeycode", "(ub)", 42, True)
            notify("NotifyKeyboardKeycode", "(ub)", 42, False)
            notify("NotifyTouchDown", "(sudd)", stream, 0, *corner)
            notify("NotifyTouchUp", "(u)", 0)
            time.sleep(0.2)

        print("ready %d %d %d %s" % (nodes[0], width, height, scale), flush=True)
        commands = os.open(fifo_path, os.O_RDONLY)
        pending = b""
        while True:
            chunk = os.read(commands, 65536)
            if not chunk:
                break
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                words = line.decode().split()
                try:
                    name, arguments = words[0], words[1:]
                    if name == "touch-down":
                        notify("NotifyTouchDown", "(sudd)", stream, int(arguments[0]), float(arguments[1]),
                               float(arguments[2]))
                    elif name == "touch-motion":
                        notify("NotifyTouchMotion", "(sudd)", stream, int(arguments[0]), float(arguments[1]),
                               float(arguments[2]))
                    elif name == "touch-up":
                        notify("NotifyTouchUp", "(u)", int(arguments[0]))
                    elif name == "motion":
                        notify("NotifyPointerMotionAbsolute", "(sdd)", stream, float(arguments[0]),
                               float(arguments[1]))
                    elif name == "button":
                        notify("NotifyPointerButton", "(ib)", int(arguments[0]), arguments[1] == "1")
                    elif name == "key":
                        notify("NotifyKeyboardKeycode", "(ub)", int(arguments[0]), arguments[1] == "1")
                    elif name == "axis-discrete":
                        notify("NotifyPointerAxisDiscrete", "(ui)", int(arguments[0]), int(arguments[1]))
                    elif name == "axis":
                        notify("NotifyPointerAxis", "(ddu)", float(arguments[0]), float(arguments[1]),
                               int(arguments[2]))
                    elif name == "scale":
                        set_scale(float(arguments[0]))
                    elif name == "keysym":
                        notify("NotifyKeyboardKeysym", "(ub)", int(arguments[0]), arguments[1] == "1")
                    else:
                        raise ValueError("unknown command")
                    print("ok", flush=True)
                except (GLib.Error, ValueError, IndexError) as error:
                    print("error %s: %s" % (line.decode(), error), flush=True)
        """#
}
