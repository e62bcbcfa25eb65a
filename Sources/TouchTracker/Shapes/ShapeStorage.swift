/// The shapes by ID, kept in chunks of 1,024 consecutive IDs.
///
/// A copy of the drawing handed to another thread (a save, a tile painter) shares this storage until the event
/// loop next changes a shape; the change then copies one chunk (at most 1,024 shapes) instead of every shape, as a
/// single dictionary of all of them did (about 6 ms at 100,000 lines). A chunk grows only as far as its highest ID
/// in use, so a drawing of a few shapes stays small.
struct ShapeStorage: Sendable {
    private static let chunkBits: UInt64 = 10
    private static let chunkMask: UInt64 = (1 << chunkBits) - 1
    private var chunks: [UInt64: [Shape?]] = [:]

    subscript(id: ShapeID) -> Shape? {
        get {
            guard let chunk = chunks[id.rawValue >> Self.chunkBits] else { return nil }
            let offset = Int(id.rawValue & Self.chunkMask)
            return offset < chunk.count ? chunk[offset] : nil
        }
        set {
            let key = id.rawValue >> Self.chunkBits
            let offset = Int(id.rawValue & Self.chunkMask)
            if newValue == nil, chunks[key] == nil { return }
            // Changed in place (the default only creates a missing chunk), so a chunk is copied only when shared.
            chunks[key, default: []].setShape(newValue, at: offset)
        }
    }

    @discardableResult
    mutating func removeValue(forKey id: ShapeID) -> Shape? {
        let old = self[id]
        if old != nil { self[id] = nil }
        return old
    }

    mutating func removeAll() {
        chunks.removeAll()
    }
}

extension Array where Element == Shape? {
    fileprivate mutating func setShape(_ shape: Shape?, at offset: Int) {
        if offset >= count {
            guard shape != nil else { return }
            append(contentsOf: repeatElement(nil, count: offset - count + 1))
        }
        self[offset] = shape
    }
}
