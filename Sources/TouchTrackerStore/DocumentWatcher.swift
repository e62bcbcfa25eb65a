import Dispatch
import Foundation
import Glibc
import Synchronization
import ThreadPriority
import TouchTracker

/// Watches one document for changes made by anyone, with inotify on its folder: an atomic replace (a temporary
/// file renamed over the document) makes a new inode, which a watch on the file itself would lose after the first
/// replace. Only events naming the document count; the writer's temporary files and the lock beside it do not.
///
/// A burst of events (a program writing in several steps, or many saves in a row) is reported once, when it has
/// been quiet for `settle` seconds, or after a second at most while it goes on. `onChange` runs on the watcher's
/// thread: it says only that something happened, and the caller looks at the file (`FileIdentity`) to see what.
/// A caller that could not finish with what it found (a copy it could not make yet) asks to look again later.
///
/// Owns the inotify descriptor and a pipe whose write end wakes the thread to stop; the thread closes the inotify
/// descriptor and the pipe's read end as it ends, deinit the write end.
public final class DocumentWatcher: Sendable {
    /// The write end of the pipe that stops the thread.
    private let wake: Int32
    private let finished = DispatchSemaphore(value: 0)
    private let stopped = Mutex(false)

    /// The longest a continuing burst delays its report.
    static let longestDelay = 1.0

    /// What `onChange` made of what it found.
    public enum Look: Sendable, Equatable {
        /// Done with it: the next report comes with the next change.
        case done
        /// Not done: report again after this many seconds, even if nothing changes (a change reports sooner).
        case again(after: Double)
    }

    /// Starts watching `documentPath`. Throws when inotify cannot be set up (too many watches, say). With
    /// `reportAtStart`, reports once `settle` seconds after the watch began even if nothing happens: for a caller
    /// that last looked at the file before (a change in between would otherwise go unseen).
    public init(
        documentPath: String, settle: Double = 0.1, reportAtStart: Bool = false,
        onChange: @escaping @Sendable () -> Look
    ) throws(DocumentFileError) {
        let parent = (documentPath as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        let name = Array((documentPath as NSString).lastPathComponent.utf8)
        let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0 else {
            throw DocumentFileError(path: folder, problem: DocumentStore.describe(errno: errno))
        }
        let mask = UInt32(
            IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_DELETE_SELF
                | IN_MOVE_SELF)
        guard inotify_add_watch(inotify, folder, mask) >= 0 else {
            let problem = DocumentStore.describe(errno: errno)
            close(inotify)
            throw DocumentFileError(path: folder, problem: problem)
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            let problem = DocumentStore.describe(errno: errno)
            close(inotify)
            throw DocumentFileError(path: folder, problem: problem)
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let (wakeRead, wakeWrite) = (ends[0], ends[1])
        self.wake = wakeWrite
        let finished = finished
        let thread = Thread {
            BackgroundPriority.lowerForThisThread()
            Self.watch(
                inotify: inotify, wake: wakeRead, name: name, settle: settle, reportAtStart: reportAtStart,
                onChange: onChange)
            close(inotify)
            close(wakeRead)
            finished.signal()
        }
        thread.name = "document watcher"
        thread.start()
    }

    deinit {
        stop()
        close(wake)
    }

    /// Stops watching and returns once the thread has ended: no `onChange` call comes after this. Idempotent.
    public func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wake, &byte, 1)
        finished.wait()
    }

    /// The thread's loop: waits for events or the wake-up, and reports each burst once it settles.
    private static func watch(
        inotify: Int32, wake: Int32, name: [UInt8], settle: Double, reportAtStart: Bool, onChange: @Sendable () -> Look
    ) {
        var lastEvent = now()
        var firstEvent: Double? = reportAtStart ? lastEvent : nil
        /// When `onChange` asked to look again (superseded by a burst's report).
        var lookAgain: Double?
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        func report() {
            firstEvent = nil
            lookAgain = nil
            if case .again(let seconds) = onChange() { lookAgain = now() + max(0, seconds) }
        }
        while true {
            // A burst under way is reported when it settles, which also stands for a look asked for meanwhile.
            let due = firstEvent.map { min(lastEvent + settle, $0 + longestDelay) } ?? lookAgain
            var timeout: Int32 = -1
            if let due { timeout = Int32(max(0, (due - now()) * 1000).rounded(.up)) }
            var descriptors = [
                pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, timeout)
            if ready < 0, errno == EINTR { continue }
            if descriptors[1].revents != 0 { return }
            if descriptors[0].revents != 0 {
                let (relevant, folderGone) = read(inotify, into: &buffer, name: name)
                if folderGone {
                    _ = onChange()
                    return
                }
                if relevant {
                    lastEvent = now()
                    if firstEvent == nil { firstEvent = lastEvent }
                }
                continue
            }
            if let due, now() >= due { report() }
        }
    }

    /// Reads every queued event: whether one named the document, and whether the folder itself went away.
    private static func read(_ inotify: Int32, into buffer: inout [UInt8], name: [UInt8]) -> (Bool, Bool) {
        var relevant = false
        var folderGone = false
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(inotify, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            buffer.withUnsafeBytes { bytes in
                // Each record: wd (4), mask (4), cookie (4), len (4), then `len` bytes of NUL-padded name.
                var offset = 0
                while offset + 16 <= count {
                    let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = bytes[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                    if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 { folderGone = true }
                    if nameBytes.elementsEqual(name) { relevant = true }
                    offset += 16 + length
                }
            }
        }
        return (relevant, folderGone)
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
