/// Placeholder base class; the recognizer machinery arrives with the TouchKit issue.
open class GestureRecognizer {
    public enum State: Sendable, Hashable {
        case possible, began, changed, ended, cancelled, failed
        public static let recognized = State.ended
    }

    public internal(set) weak var view: View?
    open var state: State = .possible

    public init() {}
}
