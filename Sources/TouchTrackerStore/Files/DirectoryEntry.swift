import Glibc

/// The name of an entry `readdir` returned, read in place up to its NUL.
///
/// An entry is only as long as its name (`d_reclen`), not `dirent`'s whole 256-byte `d_name`: copying the field
/// (as `withUnsafeBytes(of: entry.pointee.d_name)` does) reads past the end of the last entry in the system's
/// buffer, which crashes in a folder of thousands of names.
public enum DirectoryEntry {
    /// Calls `body` with the name's bytes, valid only inside `body` (until the next `readdir`).
    public static func withName<Result>(
        of entry: UnsafeMutablePointer<dirent>, _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        let name = UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self)
        return body(UnsafeRawBufferPointer(start: name, count: strlen(name)))
    }
}
