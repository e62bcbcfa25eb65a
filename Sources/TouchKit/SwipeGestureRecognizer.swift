import Foundation

/// Recognizes a quick straight stroke (discrete): the fingers travel at least `minimumDistance` in one of the
/// allowed `direction`s within `maximumDuration` of going down, staying within `maximumAngle` of that direction.
/// It recognizes as soon as the distance is reached, before the fingers lift.
open class SwipeGestureRecognizer: GestureRecognizer {
    /// Swipe directions, as an option set.
    public struct Direction: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let right = Direction(rawValue: 1 << 0)
        public static let left = Direction(rawValue: 1 << 1)
        public static let up = Direction(rawValue: 1 << 2)
        public static let down = Direction(rawValue: 1 << 3)
    }

    /// The allowed directions (UIKit's default, right).
    public var direction: Direction = .right
    /// Fingers that must swipe together (UIKit's default 1).
    public var numberOfTouchesRequired = 1
    /// Travel needed along the direction.
    public var minimumDistance: Double = 50
    /// Time from the first finger down by which the distance must be reached.
    public var maximumDuration: TimeInterval = 0.5
    /// Largest angle, in radians, between the travel and the direction.
    public var maximumAngle: Double = .pi / 6
    /// Travel beyond which a wrong direction fails the swipe at once.
    public var directionSlop: Double = 10

    private var down: [Touch] = []
    private var startLocation: Point?
    /// The direction that was recognized, once it is.
    public private(set) var recognizedDirection: Direction = []

    open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        guard state == .possible else { return }
        if down.isEmpty {
            scheduleTimeout(afterMoreThan: maximumDuration) { [self] in
                guard state == .possible else { return }
                state = .failed
            }
        }
        down.append(contentsOf: touches)
        if down.count > numberOfTouchesRequired {
            state = .failed
        }
    }

    open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        judgeTravel()
    }

    /// Recognizes (or fails) the swipe by the fingers' travel so far.
    private func judgeTravel() {
        guard state == .possible, down.count == numberOfTouchesRequired else { return }
        var travel = Point.zero
        for touch in down { travel += touch.windowLocation - touch.initialWindowLocation }
        travel = travel / Double(down.count)
        let distance = travel.length
        guard distance > directionSlop else { return }
        let dominant: Direction =
            abs(travel.x) >= abs(travel.y) ? (travel.x > 0 ? .right : .left) : (travel.y > 0 ? .down : .up)
        guard direction.contains(dominant) else {
            state = .failed
            return
        }
        let unit: Point
        switch dominant {
        case .right: unit = Point(x: 1, y: 0)
        case .left: unit = Point(x: -1, y: 0)
        case .down: unit = Point(x: 0, y: 1)
        default: unit = Point(x: 0, y: -1)
        }
        let along = travel.x * unit.x + travel.y * unit.y
        let across = abs(travel.x * unit.y - travel.y * unit.x)
        if atan2(across, along) > maximumAngle {
            if along >= minimumDistance { state = .failed }
            return
        }
        if along >= minimumDistance {
            recognizedDirection = dominant
            startLocation = centroid(initial: true)
            state = .ended
        }
    }

    open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        // The lift carries the finger's last place: travel made since the last move counts, as at a move.
        judgeTravel()
        if state == .possible { state = .failed }
    }

    /// Where the swipe started (UIKit reports the start point for a swipe).
    open override func location(in view: View?) -> Point {
        guard let start = startLocation ?? (down.isEmpty ? nil : centroid(initial: true)) else {
            return super.location(in: view)
        }
        return view?.convert(start, from: nil) ?? start
    }

    /// Where the touch at `index` started (UIKit reports each touch's start point for a swipe too).
    open override func location(ofTouch index: Int, in view: View?) -> Point {
        guard down.indices.contains(index) else { return super.location(ofTouch: index, in: view) }
        let start = down[index].initialWindowLocation
        return view?.convert(start, from: nil) ?? start
    }

    private func centroid(initial: Bool) -> Point {
        var sum = Point.zero
        for touch in down { sum += initial ? touch.initialWindowLocation : touch.windowLocation }
        return sum / Double(Swift.max(1, down.count))
    }

    open override func reset() {
        super.reset()
        down.removeAll()
        startLocation = nil
        recognizedDirection = []
    }
}
