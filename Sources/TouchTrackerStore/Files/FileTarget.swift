import Glibc
import SystemPackage

/// Where a write to a path lands, found before anything is written: the path's symlinks (a chain of them,
/// absolute or relative) are followed to the final file, so a crash-safe replace happens in the target's folder
/// and the links stay links; a dangling link's target is the file to create.
///
/// A name that reaches an existing file that is not a regular one (a named pipe, a terminal, `/dev/null`) or a
/// name that passes through `/proc` (`/dev/stdout` is `/proc/self/fd/1`, which names an open descriptor, not a
/// place) is written in place, never replaced.
struct FileTarget {
    enum Kind: Equatable {
        /// Nothing there yet: created.
        case missing
        /// A regular file, replaced by a new one with the same permission bits.
        case regular(permissions: mode_t)
        /// Written in place: a descriptor's name (through `/proc`), opened as the kernel follows it.
        case inPlace
        /// Written in place: a special file (a named pipe, a terminal, `/dev/null`) at the final path, opened there
        /// without following its name, so a link swapped in meanwhile is refused rather than written through.
        case special
        /// A folder: nothing can be written there.
        case folder
    }

    /// The final path: the given one with the symlinks of its last name followed (the folders on the way are
    /// left to the kernel).
    let path: String
    let kind: Kind

    /// How many symlinks a path may pass through, as the kernel allows (`MAXSYMLINKS`).
    static let linkLimit = 40

    /// Follows `path`'s symlinks to the file a write lands on.
    static func resolve(_ path: String) throws(DocumentFileError) -> FileTarget {
        var current = path
        for _ in 0...linkLimit {
            if passesThroughProc(current) { return try inPlace(path) }
            let info: stat
            do {
                info = try FileSystemCalls.status(current, followingLinks: false)
            } catch .noSuchFileOrDirectory {
                return FileTarget(path: current, kind: .missing)
            } catch {
                throw DocumentFileError(path: path, problem: DocumentStore.describe(error))
            }
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                if let problem = untrustedLink(current, owner: info.st_uid) {
                    throw DocumentFileError(path: path, problem: problem)
                }
                let target: String
                do {
                    target = try FileSystemCalls.readLink(current)
                } catch {
                    throw DocumentFileError(path: path, problem: DocumentStore.describe(error))
                }
                current = PathText.join(PathText.folder(of: current), target)
            case S_IFREG:
                return FileTarget(path: current, kind: .regular(permissions: info.st_mode & 0o7777))
            case S_IFDIR:
                return FileTarget(path: current, kind: .folder)
            default:
                return FileTarget(path: current, kind: .special)
            }
        }
        throw DocumentFileError(path: path, problem: DocumentStore.describe(Errno.tooManySymbolicLinkLevels))
    }

    /// Why the link at `path` (owned by `owner`) is not followed, as the kernel would not (`protected_symlinks`): it
    /// lies in a folder everyone may write that is sticky (such as /tmp), and neither this user nor the folder's
    /// owner made it — another user could point it at this user's files. Nil when it may be followed.
    private static func untrustedLink(_ path: String, owner: uid_t) -> String? {
        guard owner != geteuid(), let folder = try? FileSystemCalls.status(PathText.folder(of: path)) else {
            return nil
        }
        let shared = folder.st_mode & S_ISVTX != 0 && folder.st_mode & S_IWOTH != 0
        guard shared, owner != folder.st_uid else { return nil }
        return "is a symbolic link another user made in a shared folder, so it is not followed; remove it or "
            + "choose another name"
    }

    /// Whether `path` is in `/proc`, or in a folder that is really there (`/dev/fd` is `/proc/self/fd`).
    private static func passesThroughProc(_ path: String) -> Bool {
        if path.hasPrefix("/proc/") { return true }
        guard let real = PathText.withCString(PathText.folder(of: path), { realpath($0, nil) }) else { return false }
        defer { free(real) }
        let folder = PathText.decode(bytesOf: real)
        return folder == "/proc" || folder.hasPrefix("/proc/")
    }

    /// A name through `/proc`: what it names now, followed by the kernel.
    private static func inPlace(_ path: String) throws(DocumentFileError) -> FileTarget {
        do {
            let info = try FileSystemCalls.status(path)
            return FileTarget(path: path, kind: info.st_mode & S_IFMT == S_IFDIR ? .folder : .inPlace)
        } catch {
            throw DocumentFileError(path: path, problem: DocumentStore.describe(error))
        }
    }
}
