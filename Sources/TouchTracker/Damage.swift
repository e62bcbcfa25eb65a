import TouchKit

/// What must be redrawn since the last frame: a region of the window, and whether the complete lines changed
/// (so a cache of them is stale).
public struct Damage: Sendable {
    public var region: Rect = .null
    public var completeLinesChanged = false

    public init() {}

    public var isEmpty: Bool { region.isNull && !completeLinesChanged }

    public mutating func add(_ rect: Rect) {
        region = region.union(rect)
    }
}
