internal import CWayland

/// The seat's tablets (tablet-unstable-v2): takes the tools the compositor announces and reads their events into
/// `SeatEvent.tablet`s, in order with the seat's other events (`emit`). It owns the tablet seat, the tools, the
/// tablets and the pads with their groups, and destroys each when the compositor says it is gone, or when it goes.
/// Pads (a tablet's buttons, rings and strips) do nothing in the app: their rings and strips are let go as they
/// come.
final class WaylandTabletSeat {
    /// Held so the connection is closed only after this object's proxies are destroyed.
    private let connection: WaylandConnection
    private let tabletSeat: OpaquePointer
    private let emit: (SeatEvent) -> Void
    private let seatListener: WaylandListener<zwp_tablet_seat_v2_listener>
    private let tabletListener: WaylandListener<zwp_tablet_v2_listener>
    private let toolListener: WaylandListener<zwp_tablet_tool_v2_listener>
    private let padListener: WaylandListener<zwp_tablet_pad_v2_listener>
    private let padGroupListener: WaylandListener<zwp_tablet_pad_group_v2_listener>
    /// Every pad announced and not removed, with its groups (which outlive it unless destroyed).
    private var pads: [OpaquePointer: [OpaquePointer]] = [:]
    /// Every tool announced and not removed, with the number its events carry.
    private var tools: [OpaquePointer: UInt32] = [:]
    /// The tools that are a stylus (a pen-like tool or an eraser), by their `type`.
    private var styluses: Set<OpaquePointer> = []
    /// The window's surface: a tool in proximity of another of the app's surfaces (libdecor's title bar) is not
    /// over the window, and its events until it leaves are not the window's. Nil until the window exists.
    var windowSurface: OpaquePointer?
    /// The tools in proximity of one of the app's other surfaces.
    private var toolsElsewhere: Set<OpaquePointer> = []
    private var nextToolNumber: UInt32 = 1
    private var tablets: Set<OpaquePointer> = []

    init(
        connection: WaylandConnection, manager: OpaquePointer, seat: OpaquePointer, emit: @escaping (SeatEvent) -> Void
    ) {
        self.connection = connection
        self.emit = emit
        tabletSeat = zwp_tablet_manager_v2_get_tablet_seat(manager, seat)
        seatListener = WaylandListener(
            zwp_tablet_seat_v2_listener(
                tablet_added: { data, _, tablet in
                    guard let tablet else { return }
                    let owner = listenerOwner(data, as: WaylandTabletSeat.self)
                    owner.tablets.insert(tablet)
                    zwp_tablet_v2_add_listener(tablet, owner.tabletListener.pointer, data)
                },
                tool_added: { data, _, tool in
                    guard let tool else { return }
                    let owner = listenerOwner(data, as: WaylandTabletSeat.self)
                    owner.tools[tool] = owner.nextToolNumber
                    owner.nextToolNumber += 1
                    zwp_tablet_tool_v2_add_listener(tool, owner.toolListener.pointer, data)
                },
                pad_added: { data, _, pad in
                    guard let pad else { return }
                    let owner = listenerOwner(data, as: WaylandTabletSeat.self)
                    owner.pads[pad] = []
                    zwp_tablet_pad_v2_add_listener(pad, owner.padListener.pointer, data)
                }))
        padListener = WaylandListener(
            zwp_tablet_pad_v2_listener(
                group: { data, pad, group in
                    guard let pad, let group else { return }
                    let owner = listenerOwner(data, as: WaylandTabletSeat.self)
                    owner.pads[pad, default: []].append(group)
                    zwp_tablet_pad_group_v2_add_listener(group, owner.padGroupListener.pointer, data)
                },
                path: { _, _, _ in }, buttons: { _, _, _ in }, done: { _, _ in }, button: { _, _, _, _, _ in },
                enter: { _, _, _, _, _ in }, leave: { _, _, _, _ in },
                removed: { data, pad in
                    guard let pad else { return }
                    listenerOwner(data, as: WaylandTabletSeat.self).destroy(pad: pad)
                }))
        padGroupListener = WaylandListener(
            zwp_tablet_pad_group_v2_listener(
                buttons: { _, _, _ in },
                ring: { _, _, ring in if let ring { zwp_tablet_pad_ring_v2_destroy(ring) } },
                strip: { _, _, strip in if let strip { zwp_tablet_pad_strip_v2_destroy(strip) } },
                modes: { _, _, _ in }, done: { _, _ in }, mode_switch: { _, _, _, _, _ in }))
        tabletListener = WaylandListener(
            zwp_tablet_v2_listener(
                name: { _, _, _ in }, id: { _, _, _, _ in }, path: { _, _, _ in }, done: { _, _ in },
                removed: { data, tablet in
                    guard let tablet else { return }
                    listenerOwner(data, as: WaylandTabletSeat.self).tablets.remove(tablet)
                    zwp_tablet_v2_destroy(tablet)
                }))
        toolListener = WaylandListener(
            zwp_tablet_tool_v2_listener(
                type: { data, tool, type in
                    let owner = listenerOwner(data, as: WaylandTabletSeat.self)
                    if let tool, TabletToolTranslator.touchType(type).isStylus { owner.styluses.insert(tool) }
                    owner.send(.type(type), from: tool)
                },
                hardware_serial: { _, _, _, _ in }, hardware_id_wacom: { _, _, _, _ in }, capability: { _, _, _ in },
                done: { _, _ in },
                removed: { data, tool in
                    guard let tool else { return }
                    let owner = listenerOwner(data, as: WaylandTabletSeat.self)
                    owner.send(.removed, from: tool)
                    owner.tools[tool] = nil
                    owner.styluses.remove(tool)
                    owner.toolsElsewhere.remove(tool)
                    zwp_tablet_tool_v2_destroy(tool)
                },
                proximity_in: { data, tool, serial, _, surface in
                    let owner = listenerOwner(data, as: WaylandTabletSeat.self)
                    guard let tool else { return }
                    if let window = owner.windowSurface, let surface, surface != window {
                        owner.toolsElsewhere.insert(tool)
                        return
                    }
                    // A stylus over the window has the app's ring for a cursor (`Overlay.stylusRings`): the
                    // compositor's arrow is hidden, as drawing programs do. A tablet's mouse keeps it.
                    if owner.styluses.contains(tool) { zwp_tablet_tool_v2_set_cursor(tool, serial, nil, 0, 0) }
                    owner.send(.proximityIn, from: tool)
                },
                proximity_out: { data, tool in
                    let owner = listenerOwner(data, as: WaylandTabletSeat.self)
                    guard let tool, owner.toolsElsewhere.remove(tool) == nil else { return }
                    owner.send(.proximityOut, from: tool)
                },
                down: { data, tool, _ in listenerOwner(data, as: WaylandTabletSeat.self).send(.down, from: tool) },
                up: { data, tool in listenerOwner(data, as: WaylandTabletSeat.self).send(.up, from: tool) },
                motion: { data, tool, x, y in
                    listenerOwner(data, as: WaylandTabletSeat.self).send(
                        .motion(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)), from: tool)
                },
                pressure: { data, tool, pressure in
                    listenerOwner(data, as: WaylandTabletSeat.self).send(.pressure(pressure), from: tool)
                },
                distance: { _, _, _ in },
                tilt: { data, tool, x, y in
                    listenerOwner(data, as: WaylandTabletSeat.self).send(
                        .tilt(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)), from: tool)
                },
                rotation: { _, _, _ in }, slider: { _, _, _ in }, wheel: { _, _, _, _ in },
                // The stylus's side buttons do nothing in the app; its tip is `down` and `up`.
                button: { _, _, _, _, _ in },
                frame: { data, tool, time in
                    listenerOwner(data, as: WaylandTabletSeat.self).send(.frame(time: time), from: tool)
                }))
        zwp_tablet_seat_v2_add_listener(tabletSeat, seatListener.pointer, listenerData(self))
    }

    deinit {
        for pad in Array(pads.keys) { destroy(pad: pad) }
        for tool in tools.keys { zwp_tablet_tool_v2_destroy(tool) }
        for tablet in tablets { zwp_tablet_v2_destroy(tablet) }
        zwp_tablet_seat_v2_destroy(tabletSeat)
    }

    /// Destroys a pad and its groups.
    private func destroy(pad: OpaquePointer) {
        for group in pads.removeValue(forKey: pad) ?? [] { zwp_tablet_pad_group_v2_destroy(group) }
        zwp_tablet_pad_v2_destroy(pad)
    }

    private func send(_ event: TabletToolEvent, from tool: OpaquePointer?) {
        guard let tool, let number = tools[tool] else { return }
        // Over another of the app's surfaces only what the tool is and its removal count.
        if toolsElsewhere.contains(tool), event != .removed, event.typeValue == nil { return }
        emit(.tablet(tool: number, event))
    }
}
