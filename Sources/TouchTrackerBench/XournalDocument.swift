import Foundation
import TouchTracker

/// A drawing as a Xournal++ document (`.xopp`: gzip'd XML, the format Xournal++ 1.1 writes): one page the size of
/// the window, white and plain, its lines as two-point pen strokes in one layer, in points (Xournal++ shows a
/// point as a pixel at 100 %).
enum XournalDocument {
    static func xml(_ lines: [Line], width: Int, height: Int, lineWidth: Double) -> String {
        var xml = """
            <?xml version="1.0" standalone="no"?>
            <xournal creator="touchtracker-bench" fileversion="4">
            <title>Xournal++ document - see https://github.com/xournalpp/xournalpp</title>
            <page width="\(width)" height="\(height)">
            <background type="solid" color="#ffffffff" style="plain"/>
            <layer>

            """
        xml.reserveCapacity(xml.utf8.count + lines.count * 90)
        for line in lines {
            let points = [line.begin.x, line.begin.y, line.end.x, line.end.y].map { String(format: "%.2f", $0) }
            xml +=
                "<stroke tool=\"pen\" color=\"#000000ff\" width=\"\(lineWidth)\">"
                + points.joined(separator: " ") + "</stroke>\n"
        }
        return xml + "</layer>\n</page>\n</xournal>\n"
    }

    /// Writes `lines` to `path`, compressed by `gzip` as Xournal++ does.
    static func write(_ lines: [Line], to path: String, width: Int, height: Int, lineWidth: Double) throws {
        let plain = path + ".xml"
        try Data(xml(lines, width: width, height: height, lineWidth: lineWidth).utf8)
            .write(to: URL(fileURLWithPath: plain))
        defer { unlink(plain) }
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-c", plain]
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw EndToEndLatency.Failure(description: "cannot create \(path)")
        }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? output.close() }
        gzip.standardOutput = output
        try gzip.run()
        gzip.waitUntilExit()
        guard gzip.terminationStatus == 0 else {
            throw EndToEndLatency.Failure(description: "gzip could not compress \(plain)")
        }
    }
}
