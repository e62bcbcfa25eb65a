/// Why the Wayland host could not start or go on, in words for the person who started it.
public struct WaylandError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
