import Foundation
import XorgTestSupport

/// The app's document file as the tests expect it:
/// `{"version": 1, "lines": [{"begin": {"x": 10, "y": 20}, "end": {"x": 300, "y": 40}}]}`
/// (window coordinates). Unknown keys are ignored.
struct SavedDocument: Decodable, Equatable, Sendable {
    struct Point: Decodable, Equatable, Sendable, CustomStringConvertible {
        let x: Double
        let y: Double
        var description: String { "(\(x), \(y))" }

        func distance(to other: (x: Double, y: Double)) -> Double {
            ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
        }
    }

    struct Line: Decodable, Equatable, Sendable, CustomStringConvertible {
        let begin: Point
        let end: Point
        var description: String { "\(begin)→\(end)" }
    }

    let version: Int
    let lines: [Line]

    /// The document at `url`, or nil while it is missing or not (yet) a whole valid document.
    static func read(_ url: URL) -> SavedDocument? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(SavedDocument.self, from: data)
    }

    /// Polls the file (the app saves it atomically after every completed line) until it holds at
    /// least `lineCount` lines.
    static func wait(
        for url: URL, lineCount: Int, timeout: Duration = .seconds(10)
    ) async throws -> SavedDocument {
        try await waitForValue("\(url.lastPathComponent) to hold \(lineCount) line(s)", timeout: timeout) {
            guard let document = read(url), document.lines.count >= lineCount else { return nil }
            return document
        }
    }
}
