import SeededRandom
import TouchKit
import TouchTracker

/// The canvas every row uses: 1920x1080 with random lines about 100 px long.
enum Workloads {
    static let width = 1920
    static let height = 1080

    /// `count` lines starting anywhere in the window, in every direction, `length` px long (a fixed length draws
    /// no random number for it, so the 100 px drawings stay the same as in earlier runs).
    static func randomLines(_ count: Int, seed: UInt64 = 42, length: ClosedRange<Double> = 100...100) -> [Line] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let begin = Point(
                x: Double.random(in: 0..<Double(width), using: &generator),
                y: Double.random(in: 0..<Double(height), using: &generator))
            let angle = Double.random(in: 0..<(2 * Double.pi), using: &generator)
            let size =
                length.lowerBound == length.upperBound
                ? length.lowerBound : Double.random(in: length, using: &generator)
            return Line(begin: begin, end: Point(x: begin.x + size * cos(angle), y: begin.y + size * sin(angle)))
        }
    }

    /// Lines of 20 to 400 px in every direction, starting anywhere in the 1920x1080 window: the drawings the
    /// responsiveness rows open.
    static func spreadLines(_ count: Int) -> [Line] {
        randomLines(count, seed: 13, length: 20...400)
    }

    /// `spreadLines(count)` with their starts `windows` times as far from the window's corner (lengths and directions
    /// kept): a drawing `windows` windows wide and high, the zoom rows' (at 8, fitting it in the window shows it at
    /// about 11 %, within the app's 10 % to 1000 %).
    static func spreadOverWindows(_ count: Int, windows: Double = 8) -> [Line] {
        spreadLines(count).map { line in line.translated(by: line.begin * (windows - 1)) }
    }

    /// The recognizer pipeline row's input: `strokes` one-finger strokes of 200 events each (down, 198 moves 1 ms apart along x, up), the
    /// platform id cycling through ten, every stroke starting somewhere else on the canvas.
    static func pipelineInputs(strokes: Int) -> [TouchInput] {
        var inputs: [TouchInput] = []
        var time = 0.0
        let moves = 198
        inputs.reserveCapacity(strokes * (moves + 2))
        for stroke in 0..<strokes {
            let id = UInt64(stroke % 10)
            let start = Point(x: Double(stroke % 1500), y: Double(stroke % 900))
            time += 0.001
            inputs.append(TouchInput(id: id, phase: .began, location: start, timestamp: time))
            for step in 1...moves {
                time += 0.001
                inputs.append(
                    TouchInput(id: id, phase: .moved, location: start + Point(x: Double(step), y: 0), timestamp: time))
            }
            time += 0.001
            inputs.append(TouchInput(id: id, phase: .ended, location: start + Point(x: 200, y: 0), timestamp: time))
        }
        return inputs
    }

    /// The iOS tutorial's hit test: 21 samples along every line, the first line with a sample within 20 px.
    static func seedHitTest(_ lines: [Line], at point: Point) -> Int? {
        for (index, line) in lines.enumerated() {
            for step in 0...20 {
                let t = Double(step) / 20
                let sample = Point(
                    x: line.begin.x + (line.end.x - line.begin.x) * t, y: line.begin.y + (line.end.y - line.begin.y) * t
                )
                if sample.distance(to: point) < 20 { return index }
            }
        }
        return nil
    }
}

#if canImport(Glibc)
    import Glibc
#endif
