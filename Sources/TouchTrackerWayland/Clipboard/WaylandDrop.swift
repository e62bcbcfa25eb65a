import BackgroundWork
internal import CWayland
import Glibc
import Synchronization
import TouchTrackerSession

/// Files dropped on the window from a file manager, through the seat's `wl_data_device` (the clipboard's, which
/// hands each drag's offer here): an offer of `text/uri-list` is accepted for a copy as it enters the window; on the
/// drop the list is read from a pipe on a worker (the source is another program, which may be slow), and once read
/// the offer is finished and let go of on the loop. Which files open is the session's policy (`DroppedFiles`).
final class WaylandDrop {
    private let connection: WaylandConnection
    private let wakeUp: @Sendable () -> Void
    private let log: @Sendable (String) -> Void
    /// The drag over the window now, whether it offers a list of files, and the action the compositor chose.
    private var current: (offer: OpaquePointer, accepts: Bool, action: UInt32)?
    /// A dropped offer whose list is being read, and the action chosen for it.
    private var reading: (offer: OpaquePointer, action: UInt32)?
    /// Where the reading worker leaves the list (nil inside: nothing could be read).
    private let arrived = DroppedList()

    /// The longest list read: thousands of paths.
    static let limit = 1 << 20
    /// A source that sends nothing for this long (seconds) is given up on.
    static let timeout = 5.0

    init(
        connection: WaylandConnection, wakeUp: @escaping @Sendable () -> Void, log: @escaping @Sendable (String) -> Void
    ) {
        self.connection = connection
        self.wakeUp = wakeUp
        self.log = log
    }

    deinit {
        if let current { wl_data_offer_destroy(current.offer) }
        if let reading { wl_data_offer_destroy(reading.offer) }
    }

    /// A drag entered the window with `offer` (announcing `types`), at input `serial`: a list of files is accepted
    /// for a copy, anything else refused.
    func enter(_ offer: OpaquePointer, serial: UInt32, types: [String]) {
        leave()
        let accepts = types.contains(DroppedFiles.mimeType)
        current = (offer, accepts, 0)
        wl_data_offer_accept(offer, serial, accepts ? DroppedFiles.mimeType : nil)
        if wl_data_offer_get_version(offer) >= 3 {
            let copy = WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue
            wl_data_offer_set_actions(offer, accepts ? copy : 0, accepts ? copy : 0)
        }
        connection.flush()
    }

    /// The compositor chose `action` for `offer` (`wl_data_offer.action`).
    func chose(_ action: UInt32, for offer: OpaquePointer) {
        if current?.offer == offer { current?.action = action }
        if reading?.offer == offer { reading?.action = action }
    }

    /// Whether `offer` is a drag's (so the clipboard leaves it alone).
    func owns(_ offer: OpaquePointer) -> Bool {
        current?.offer == offer || reading?.offer == offer
    }

    /// The drag left the window (or ended elsewhere): its offer is let go of.
    func leave() {
        guard let current else { return }
        self.current = nil
        wl_data_offer_destroy(current.offer)
    }

    /// The drag was dropped on the window: a list of files is read on a worker.
    func drop() {
        guard let current else { return }
        guard current.accepts, reading == nil else {
            log("drop: the dragged data is not a list of files (text/uri-list); nothing opened")
            leave()
            return
        }
        self.current = nil
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            log("drop: cannot make a pipe: \(String(cString: strerror(errno))); nothing opened")
            wl_data_offer_destroy(current.offer)
            return
        }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        wl_data_offer_receive(current.offer, DroppedFiles.mimeType, fds[1])
        close(fds[1])
        connection.flush()
        reading = (current.offer, current.action)
        let (readFD, log) = (fds[0], log)
        Worker.run("drop read", wakeUp: wakeUp) { [arrived] in
            var list: [UInt8]?
            switch PipeTransfer.readAll(from: readFD, limit: Self.limit, timeout: Self.timeout) {
            case .success(let bytes): list = bytes
            case .failure(let problem): log("drop: \(problem); nothing opened")
            }
            close(readFD)
            arrived.value.withLock { $0 = .some(list) }
        }
    }

    /// Once a frame: the dropped list once read (the offer is finished and let go of), nil before (or when it could
    /// not be read).
    func service() -> [UInt8]? {
        guard let reading,
            let list = arrived.value.withLock({ value -> [UInt8]?? in
                defer { value = nil }
                return value
            })
        else { return nil }
        self.reading = nil
        // `finish` only for an accepted copy the compositor confirmed (version 3 on), as the protocol asks.
        if list != nil, reading.action != 0, wl_data_offer_get_version(reading.offer) >= 3 {
            wl_data_offer_finish(reading.offer)
        }
        wl_data_offer_destroy(reading.offer)
        connection.flush()
        return list
    }
}

/// The list a reading worker hands to the event loop (nil inside: nothing could be read).
private final class DroppedList: Sendable {
    let value = Mutex<[UInt8]??>(nil)
}
