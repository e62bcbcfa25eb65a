import Glibc

extension DroppedFiles {
    /// What a window does with a dropped `text/uri-list`: each refusal is one line to `log`, and the drawings go to
    /// `open` (which opens each in a window of its own, off the loop).
    public static func open(
        uriList: [UInt8], verbose: Bool, log: (String) -> Void, open: ([String]) -> Void
    ) {
        let dropped = DroppedFiles(uriList: uriList, hostName: hostName())
        for refusal in dropped.refusals { log(refusal) }
        guard !dropped.drawings.isEmpty else { return }
        if verbose { log("drop: opening \(dropped.drawings.count) drawing(s)") }
        open(dropped.drawings)
    }

    /// This computer's name (`gethostname`), whose `file:` URIs are local.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
