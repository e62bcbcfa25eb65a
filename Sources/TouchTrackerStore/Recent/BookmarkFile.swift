import CGio
import TouchTracker

/// GLib's `GBookmarkFile`, the desktop bookmark format (XBEL) GTK and GNOME keep recent files in: the one owner of
/// the pointer, freed in `deinit`. It only parses and serializes; reading and writing the file is the store's
/// (`RecentFiles`), so the file is written the one way the app writes files (`AtomicFile`).
final class BookmarkFile {
    private let pointer: OpaquePointer

    /// An empty bookmark file.
    init() {
        pointer = g_bookmark_file_new()
    }

    /// Parses `bytes` (the file at `path`, named in errors) with `g_bookmark_file_load_from_data`; what GLib cannot
    /// parse is an error, never an empty file to write over it.
    init(parsing bytes: [UInt8], path: String) throws(RecentFilesError) {
        pointer = g_bookmark_file_new()
        var error: UnsafeMutablePointer<GError>?
        // A NUL after the bytes, so even an empty file has a buffer (GLib reads only `count` bytes; an empty file
        // is its "empty document" error, as it should be: XBEL has a root element).
        let loaded = (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                g_bookmark_file_load_from_data(pointer, $0.baseAddress!, gsize(bytes.count), &error)
            }
        }
        if loaded == 0 {
            // Every stored property is set, so `deinit` runs as the error leaves and frees the pointer.
            let reason = Self.take(error)
            throw RecentFilesError(path: path, problem: "GLib cannot read it (\(reason)); it is left as it is")
        }
    }

    deinit {
        g_bookmark_file_free(pointer)
    }

    /// Records that `application` (started as `exec`) used `uri`, of type `mimeType`, now: the entry is added if
    /// missing (`g_bookmark_file_add_application` stamps it with GLib's clock) and its type set.
    func add(uri: String, mimeType: String, application: String, exec: String) {
        g_bookmark_file_add_application(pointer, uri, application, exec)
        g_bookmark_file_set_mime_type(pointer, uri, mimeType)
    }

    /// The file's text (`g_bookmark_file_to_data`).
    func serialized(path: String) throws(RecentFilesError) -> [UInt8] {
        var length: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        guard let data = g_bookmark_file_to_data(pointer, &length, &error) else {
            throw RecentFilesError(path: path, problem: "GLib cannot write it (\(Self.take(error)))")
        }
        defer { g_free(data) }
        return data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(length)))
        }
    }

    /// The URIs in the file, in its order.
    var uris: [String] {
        var count: gsize = 0
        guard let list = g_bookmark_file_get_uris(pointer, &count) else { return [] }
        defer { g_strfreev(list) }
        return (0..<Int(count)).compactMap { list[$0].map { String(cString: $0) } }
    }

    /// The MIME type recorded for `uri`, nil if it has none.
    func mimeType(of uri: String) -> String? {
        guard let type = g_bookmark_file_get_mime_type(pointer, uri, nil) else { return nil }
        defer { g_free(type) }
        return String(cString: type)
    }

    /// The applications recorded for `uri`, nil if it has none.
    func applications(of uri: String) -> [String] {
        var count: gsize = 0
        guard let list = g_bookmark_file_get_applications(pointer, uri, &count, nil) else { return [] }
        defer { g_strfreev(list) }
        return (0..<Int(count)).compactMap { list[$0].map { String(cString: $0) } }
    }

    /// The message of a GLib error, which is freed.
    static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "no reason given" }
        defer { g_error_free(error) }
        return String(cString: error.pointee.message)
    }
}
