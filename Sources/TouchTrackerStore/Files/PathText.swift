import Foundation
import Glibc
import SystemPackage

/// Paths as the system has them: bytes. A Linux file name is any bytes but `/` and NUL, and need not be UTF-8
/// (`café.json` written in Latin-1 is `caf\xE9.json`). The app carries paths as Swift `String`s, which hold only
/// Unicode, so a path's bytes are kept in its string without loss:
///
/// - every well-formed UTF-8 sequence is its own character, as usual;
/// - every other byte B (which is 0x80 or more) stands as the private-use character U+10FE00 + B
///   (U+10FE80…U+10FEFF), and so does each byte of a well-formed sequence that encodes one of those characters, so
///   the mapping is one-to-one: `bytes(decode(b)) == b` for all bytes b.
///
/// Paths enter as bytes (the command line's `argv`, the environment) through `decode`, reach the system as bytes
/// through `filePath` or `withCString`, and are shown to people through `shown`, where a byte that is not text is
/// written `\xE9`. Names are split with `folder(of:)` and `name(of:)`, which never trap (a one-character name is
/// an ordinary name).
public enum PathText {
    /// The first of the 128 private-use characters that stand for bytes 0x80…0xFF.
    private static let escapeBase: UInt32 = 0x10_FE00

    /// The string that holds `bytes` (see the type's comment).
    public static func decode(_ bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            if let (scalar, length) = scalar(in: bytes, at: index), !isEscape(scalar) {
                scalars.append(scalar)
                index += length
            } else if bytes[index] < 0x80 {
                // Only NUL gets here (any other ASCII byte is a scalar of its own); kept as it is.
                scalars.append(Unicode.Scalar(bytes[index]))
                index += 1
            } else {
                scalars.append(Unicode.Scalar(escapeBase + UInt32(bytes[index]))!)
                index += 1
            }
        }
        return String(scalars)
    }

    /// The string that holds a NUL-terminated C string's bytes (a path the C library returned).
    public static func decode(bytesOf cString: UnsafePointer<CChar>) -> String {
        decode(UnsafeBufferPointer(start: cString, count: strlen(cString)).map { UInt8(bitPattern: $0) })
    }

    /// The bytes `path` holds.
    public static func bytes(_ path: String) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if isEscape(scalar) {
                result.append(UInt8(scalar.value - escapeBase))
            } else {
                result.append(contentsOf: String(scalar).utf8)
            }
        }
        return result
    }

    /// Whether `path` holds bytes that are not UTF-8 text.
    public static func hasRawBytes(_ path: String) -> Bool {
        path.unicodeScalars.contains(where: isEscape)
    }

    /// `path` as swift-system's `FilePath`, byte for byte.
    public static func filePath(_ path: String) -> FilePath {
        withCString(path) { FilePath(platformString: $0) }
    }

    /// The string that holds a `FilePath`'s bytes.
    public static func decode(_ path: FilePath) -> String {
        path.withPlatformString { decode(bytesOf: $0) }
    }

    /// Calls `body` with `path`'s bytes as a NUL-terminated C string.
    public static func withCString<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        var raw = bytes(path).map { CChar(bitPattern: $0) }
        raw.append(0)
        return try raw.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// `path` for a person to read: text as it is, each byte that is not text as `\xHH`.
    public static func shown(_ path: String) -> String {
        var text = ""
        for scalar in path.unicodeScalars {
            if isEscape(scalar) {
                text += "\\x" + String(UInt8(scalar.value - escapeBase), radix: 16, uppercase: true)
            } else if scalar.value < 0x20 || scalar.value == 0x7F {
                // A control character (a newline in a name) would break the message's one line.
                text += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// `path` as `shown`, quoted for a shell where it needs to be (a space, a quote, `$`…), so a command line
    /// suggested in a message can be pasted as it is.
    public static func shellQuoted(_ path: String) -> String {
        let text = shown(path)
        let plain = text.unicodeScalars.allSatisfy {
            ($0.value > 0x7F) || CharacterSet.alphanumerics.contains($0) || "/._-+,:@%=~".unicodeScalars.contains($0)
        }
        if plain && !text.isEmpty { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The folder part of `path`, as `dirname` gives it: `.` for a bare name, `/` for a name in the root.
    public static func folder(of path: String) -> String {
        let components = split(path)
        if components.names.count <= 1 { return components.isAbsolute ? "/" : "." }
        return (components.isAbsolute ? "/" : "") + components.names.dropLast().joined(separator: "/")
    }

    /// The last name in `path` (`drawing.json` of `a/b/drawing.json`); `/` for the root, `.` for an empty path.
    public static func name(of path: String) -> String {
        let components = split(path)
        return components.names.last ?? (components.isAbsolute ? "/" : ".")
    }

    /// `name` in `folder`.
    public static func join(_ folder: String, _ name: String) -> String {
        if name.unicodeScalars.first == "/" { return name }
        if folder.isEmpty || folder == "." { return name }
        return folder.unicodeScalars.last == "/" ? folder + name : folder + "/" + name
    }

    /// A name without its last extension (`drawing` of `drawing.json`); a name that only starts with a dot, or
    /// has none, is kept whole.
    public static func stem(of name: String) -> String {
        let scalars = name.unicodeScalars
        guard let dot = scalars.lastIndex(of: "."), dot != scalars.startIndex else { return name }
        return String(String.UnicodeScalarView(scalars[..<dot]))
    }

    /// `path` with `suffix` added to its name (`drawing.json` → `drawing.json.lock`), the name cut so it stays
    /// within the 255 bytes a name may have: a cut name ends in `~` and eight hex digits of the whole name's
    /// hash, so two long names that differ only past the cut still get different siblings.
    public static func sibling(of path: String, adding suffix: String) -> String {
        let name = name(of: path)
        let fitted = fitted(name, before: suffix)
        return join(folder(of: path), fitted + suffix)
    }

    /// `folder/name.json` → `folder/name.EXT`: `path` with its extension replaced by `newExtension`. A name without
    /// an extension gets `.EXT` added, and so does one that already ends in `.EXT` (so the sibling never replaces the
    /// file itself). The name is cut to fit 255 bytes (`fitted`).
    public static func sibling(of path: String, replacingExtensionWith newExtension: String) -> String {
        let name = name(of: path)
        let stem = stem(of: name)
        let suffix = "." + newExtension
        let base = stem + suffix == name ? name : stem
        return join(folder(of: path), fitted(base, before: suffix) + suffix)
    }

    /// `name`, or when `name` + `suffix` would pass 255 bytes, as much of it as fits with `~HASH` after it.
    public static func fitted(_ name: String, before suffix: String) -> String {
        let nameBytes = bytes(name)
        let limit = Int(NAME_MAX) - suffix.utf8.count
        guard nameBytes.count > limit else { return name }
        let mark = "~" + hashKey(of: nameBytes)
        return decode(nameBytes.prefix(max(0, limit - mark.utf8.count))) + mark
    }

    /// Eight hex digits of the 64-bit FNV-1a hash of `bytes`: short, stable across runs and machines.
    public static func hashKey(of bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        let digits = String(String(hash, radix: 16).suffix(8))
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Whether the path starts at the root, and its names, with empty names (`a//b`, a trailing `/`) dropped. Split
    /// on the scalar `/` itself (bytes 0x2F), never on characters: a name may start with a combining mark.
    private static func split(_ path: String) -> (isAbsolute: Bool, names: [String]) {
        let scalars = path.unicodeScalars
        let names = scalars.split(separator: "/", omittingEmptySubsequences: true).map {
            String(String.UnicodeScalarView($0))
        }
        return (scalars.first == "/", names)
    }

    private static func isEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= escapeBase + 0x80 && scalar.value <= escapeBase + 0xFF
    }

    /// The well-formed UTF-8 scalar that starts at `index`, and its length in bytes; nil when the bytes there are
    /// not one (a stray continuation byte, a cut sequence, an overlong form, a surrogate, beyond U+10FFFF).
    private static func scalar(in bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        let length: Int
        let minimum: UInt32
        var value: UInt32
        switch lead {
        case 0x01..<0x80: return (Unicode.Scalar(lead), 1)
        case 0xC2..<0xE0: (length, minimum, value) = (2, 0x80, UInt32(lead & 0x1F))
        case 0xE0..<0xF0: (length, minimum, value) = (3, 0x800, UInt32(lead & 0x0F))
        case 0xF0..<0xF5: (length, minimum, value) = (4, 0x1_0000, UInt32(lead & 0x07))
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let next = bytes[index + offset]
            guard next & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(next & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
