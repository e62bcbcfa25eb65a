import BackgroundWork
import Dispatch
import Foundation
import Glibc
import Synchronization
import TouchTracker

/// Watches one document for changes made by anyone, with inotify on its folder: an atomic replace (a temporary
/// file renamed over the document) makes a new inode, which a watch on the file itself would lose after the first
/// replace. Only events naming the document count; the writer's temporary files and the lock beside it do not.
/// A document reached through symlinks is watched where it really is: its target's folder, under its target's
/// name (`FileTarget`).
///
/// A burst of events (a program writing in several steps, or many saves in a row) is reported once, when it has
/// been quiet for `settle` seconds, or after a second at most while it goes on. `onChange` runs on the watcher's
/// thread: it says only that something happened, and the caller looks at the file (`FileIdentity`) to see what.
/// A caller that could not finish with what it found (a copy it could not make yet) asks to look again later.
///
/// The folder itself may go away (deleted, or renamed elsewhere): that is reported like a change, and the watcher
/// then looks for a folder at the document's place every `rewatchInterval` seconds; once one is there again (made
/// again by the app's next save, or by anyone) it is watched, `onRewatch` runs (the app takes its lock again) and
/// a change is reported, since the document may have been written there meanwhile.
///
/// Owns the inotify descriptor and a pipe whose write end wakes the thread to stop; the thread closes the inotify
/// descriptor as it ends, `stop` the pipe's ends once the thread has ended, so no write ever goes to a closed or
/// reused descriptor.
public final class DocumentWatcher: Sendable {
    /// The pipe that stops the thread: its read end, watched by the thread, and its write end.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let finished = DispatchSemaphore(value: 0)
    private let stopped = Mutex(false)

    /// The longest a continuing burst delays its report.
    static let longestDelay = 1.0
    /// How often a folder that went away is looked for again.
    static let rewatchInterval = 0.25
    /// How often the watched place is compared with where the document's path leads now: a folder further up
    /// renamed, or a link re-pointed, sends no event to the watches, and saves would go elsewhere.
    static let placeCheckInterval = 1.0

    /// What `onChange` made of what it found.
    public enum Look: Sendable, Equatable {
        /// Done with it: the next report comes with the next change.
        case done
        /// Not done: report again after this many seconds, even if nothing changes (a change reports sooner).
        case again(after: Double)
    }

    /// Starts watching `documentPath`. Throws when inotify cannot be set up (too many watches, say) or the folder
    /// cannot be watched. With `reportAtStart`, reports once `settle` seconds after the watch began even if
    /// nothing happens: for a caller that last looked at the file before (a change in between would otherwise go
    /// unseen).
    public init(
        documentPath: String, settle: Double = 0.1, reportAtStart: Bool = false,
        onRewatch: @escaping @Sendable () -> Void = {}, onChange: @escaping @Sendable () -> Look
    ) throws(DocumentFileError) {
        let place = Place(documentPath)
        let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0 else {
            throw DocumentFileError(path: place.folder, problem: Self.describeWatchFailure(errno: errno))
        }
        guard let watches = place.addWatches(inotify) else {
            let problem = Self.describeWatchFailure(errno: errno)
            close(inotify)
            throw DocumentFileError(path: place.folder, problem: problem)
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            let problem = DocumentStore.describe(errno: errno)
            close(inotify)
            throw DocumentFileError(path: place.folder, problem: problem)
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        let finished = finished
        let wakeRead = wakeRead
        Worker.run("document watcher") {
            var watcher = WatchLoop(
                inotify: inotify, watches: watches, documentPath: documentPath, place: place, settle: settle,
                reportAtStart: reportAtStart)
            watcher.run(wake: wakeRead, onRewatch: onRewatch, onChange: onChange)
            close(inotify)
            finished.signal()
        }
    }

    /// Why inotify could not watch, in words: its limits are the system's, not the disk's (ENOSPC here means the
    /// watches are used up, not that the disk is full).
    static func describeWatchFailure(errno code: Int32) -> String {
        switch code {
        case ENOSPC: "the system's limit of watched folders is reached (fs.inotify.max_user_watches)"
        case EMFILE: "the system's limit of inotify instances is reached (fs.inotify.max_user_instances)"
        default: DocumentStore.describe(errno: code)
        }
    }

    deinit {
        stop()
        close(wakeRead)
        close(wakeWrite)
    }

    /// Looks at the document now, as if a change had been reported (after the usual settling): for a change no
    /// event names, such as a write through another hard link to the file.
    public func lookNow() {
        var byte = Self.lookByte
        _ = write(wakeWrite, &byte, 1)
    }

    /// What the wake-up pipe carries: a look asked for; anything else asks the thread to stop.
    static let lookByte: UInt8 = 2

    /// Stops watching and returns once the thread has ended: no `onChange` call comes after this. Idempotent.
    public func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        finished.wait()
    }

    /// Where the document is: its target's folder and name, and the folder's own folder and name in it.
    struct Place {
        let folder: String
        let name: [UInt8]
        let parent: String
        let folderName: [UInt8]

        init(_ documentPath: String) {
            let target = (try? FileTarget.resolve(documentPath).path) ?? documentPath
            folder = PathText.folder(of: target)
            name = PathText.bytes(PathText.name(of: target))
            parent = PathText.folder(of: folder)
            folderName = PathText.bytes(PathText.name(of: folder))
        }

        /// The folder that is at `folder` now (device and inode), nil when there is none.
        var folderIdentity: FolderIdentity? { FolderIdentity(folder) }

        /// Whether `other` names the same folder path and file name.
        func sameNames(as other: Place) -> Bool { folder == other.folder && name == other.name }

        /// Watches the folder and, where there is one, its parent; nil (errno set) when the folder cannot be.
        ///
        /// The parent is watched because the folder's own "deleted" event comes only once nothing holds the folder
        /// any more, and the document's lock file, open inside it, does: the parent hears of the removal at once.
        func addWatches(_ inotify: Int32) -> Watches? {
            let folderMask = UInt32(
                IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_DELETE_SELF
                    | IN_MOVE_SELF | IN_ONLYDIR)
            let watch = PathText.withCString(folder) { inotify_add_watch(inotify, $0, folderMask) }
            guard watch >= 0 else { return nil }
            var parentWatch: Int32?
            if parent != folder {
                let parentMask = UInt32(IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
                let added = PathText.withCString(parent) { inotify_add_watch(inotify, $0, parentMask) }
                if added >= 0, added != watch { parentWatch = added }
            }
            return Watches(folder: watch, parent: parentWatch, folderIdentity: folderIdentity)
        }
    }

    /// A folder's device and inode: which folder a path leads to, whatever it holds.
    struct FolderIdentity: Equatable {
        let device: UInt64
        let inode: UInt64

        init?(_ path: String) {
            guard let info = try? FileSystemCalls.status(path), info.st_mode & S_IFMT == S_IFDIR else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// The watch descriptors of a place.
    struct Watches {
        let folder: Int32
        let parent: Int32?
        /// The folder watched, told just after its watch was added (nil if it could not be): what the place is
        /// compared with.
        let folderIdentity: FolderIdentity?

        func remove(from inotify: Int32) {
            inotify_rm_watch(inotify, folder)
            if let parent { inotify_rm_watch(inotify, parent) }
        }
    }

    /// The thread's loop: waits for events, the wake-up or the next time to look for a folder that went away, and
    /// reports each burst once it settles.
    private struct WatchLoop {
        let inotify: Int32
        /// The folder's watches; nil while the folder is gone.
        var watches: Watches?
        let documentPath: String
        var place: Place
        /// When the place is next compared with where the path leads.
        var nextPlaceCheck = DocumentWatcher.now() + placeCheckInterval
        let settle: Double
        var lastEvent = DocumentWatcher.now()
        var firstEvent: Double?
        /// When `onChange` asked to look again (superseded by a burst's report).
        var lookAgain: Double?
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)

        init(
            inotify: Int32, watches: Watches, documentPath: String, place: Place, settle: Double, reportAtStart: Bool
        ) {
            self.inotify = inotify
            self.watches = watches
            self.documentPath = documentPath
            self.place = place
            self.settle = settle
            if reportAtStart { firstEvent = lastEvent }
        }

        mutating func run(wake: Int32, onRewatch: () -> Void, onChange: () -> Look) {
            while true {
                // A burst under way is reported when it settles, which also stands for a look asked for meanwhile.
                let due = firstEvent.map { min(lastEvent + settle, $0 + longestDelay) } ?? lookAgain
                // Woken for that, and to look for a folder that went away or compare the place watched.
                let look = watches == nil ? DocumentWatcher.now() + rewatchInterval : nextPlaceCheck
                let wakeAt = min(due ?? .infinity, look)
                let timeout = Int32(max(0, (wakeAt - DocumentWatcher.now()) * 1000).rounded(.up))
                var descriptors = [
                    pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
                ]
                let ready = poll(&descriptors, 2, timeout)
                if ready < 0, errno == EINTR { continue }
                if descriptors[1].revents != 0 {
                    var bytes = [UInt8](repeating: 0, count: 64)
                    let count = read(wake, &bytes, bytes.count)
                    guard count > 0, bytes[..<count].allSatisfy({ $0 == DocumentWatcher.lookByte }) else { return }
                    lastEvent = DocumentWatcher.now()
                    if firstEvent == nil { firstEvent = lastEvent }
                    continue
                }
                if descriptors[0].revents != 0 {
                    let (relevant, folderGone) = readEvents()
                    if relevant || folderGone {
                        lastEvent = DocumentWatcher.now()
                        if firstEvent == nil { firstEvent = lastEvent }
                    }
                    if folderGone, let gone = watches {
                        // Moved away, the old folder would still be watched: only its place counts.
                        gone.remove(from: inotify)
                        watches = nil
                    }
                    continue
                }
                if watches != nil, DocumentWatcher.now() >= nextPlaceCheck { checkPlace() }
                if watches == nil { rewatch(onRewatch) }
                if let due, DocumentWatcher.now() >= due { report(onChange) }
            }
        }

        /// Compares the place watched with where the document's path leads now. When they differ (a folder further
        /// up renamed, a link pointed elsewhere) the watch is dropped as when the folder goes, a change is reported,
        /// and the place the path leads to is watched from the next turn (`rewatch`, which takes the lock there).
        private mutating func checkPlace() {
            nextPlaceCheck = DocumentWatcher.now() + placeCheckInterval
            let now = Place(documentPath)
            guard let watched = watches,
                !now.sameNames(as: place)
                    || (watched.folderIdentity != nil && now.folderIdentity != watched.folderIdentity)
            else { return }
            watched.remove(from: inotify)
            watches = nil
            lastEvent = DocumentWatcher.now()
            if firstEvent == nil { firstEvent = lastEvent }
        }

        /// Watches the document's folder again if there is one at its place now (it may be somewhere else than
        /// before, if the document is a link that was pointed elsewhere).
        private mutating func rewatch(_ onRewatch: () -> Void) {
            let place = Place(documentPath)
            guard let watches = place.addWatches(inotify) else { return }
            self.place = place
            self.watches = watches
            nextPlaceCheck = DocumentWatcher.now() + placeCheckInterval
            onRewatch()
            lastEvent = DocumentWatcher.now()
            if firstEvent == nil { firstEvent = lastEvent }
        }

        private mutating func report(_ onChange: () -> Look) {
            firstEvent = nil
            lookAgain = nil
            if case .again(let seconds) = onChange() { lookAgain = DocumentWatcher.now() + max(0, seconds) }
        }

        /// Reads every queued event: whether one named the document in the watched folder, and whether that
        /// folder itself went away (its own event, or its parent's naming it).
        private mutating func readEvents() -> (relevant: Bool, folderGone: Bool) {
            var relevant = false
            var folderGone = false
            let (watches, name, folderName) = (self.watches, place.name, place.folderName)
            let selfGone = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(inotify, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                buffer.withUnsafeBytes { bytes in
                    // Each record: wd (4), mask (4), cookie (4), len (4), then `len` bytes of NUL-padded name.
                    var offset = 0
                    while offset + 16 <= count {
                        let descriptor = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                        let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                        let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                        let nameBytes = bytes[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                            // Events were lost: the document may have changed, so look.
                            relevant = true
                        } else if descriptor == watches?.folder {
                            if mask & selfGone != 0 { folderGone = true }
                            if nameBytes.elementsEqual(name) { relevant = true }
                        } else if let parent = watches?.parent, descriptor == parent {
                            if mask & selfGone != 0 { folderGone = true }
                            if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0, nameBytes.elementsEqual(folderName) {
                                folderGone = true
                            }
                        }
                        offset += 16 + length
                    }
                }
            }
            return (relevant, folderGone)
        }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
