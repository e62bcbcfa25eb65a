import SeededRandom
import Testing
import TouchKit
import TouchTracker

@Suite("A save reads the snapshot in place")
struct DocumentContentTests {
    /// Lines and circles over several of the encoder's batches, with colours, widths and options set.
    private func drawing() -> Drawing {
        var random = SplitMix64(seed: 11)
        func coordinate() -> Double { Double(random.next() % 200_000) / 100 - 500 }
        let lines = (0..<(DocumentCodec.batchSize * 2 + 7)).map { index in
            Line(
                begin: Point(x: coordinate(), y: coordinate()), end: Point(x: coordinate(), y: coordinate()),
                color: index % 3 == 0 ? .red : nil, width: index % 5 == 0 ? 7.5 : nil)
        }
        let circles = (0..<(DocumentCodec.batchSize + 3)).map { index in
            Circle(
                frame: Rect(x: coordinate(), y: coordinate(), width: 40, height: 30),
                color: index % 2 == 0 ? .blue : nil)
        }
        return Drawing(
            lines: lines, circles: circles, options: DrawingOptions(circles: true, widthBySpeed: true, color: .red))
    }

    private func text(_ content: DocumentContent, batchesAtOnce: Int) -> [UInt8] {
        var text: [UInt8] = []
        DocumentCodec.encode(content, batchesAtOnce: batchesAtOnce) { (piece: [UInt8]) in text += piece }
        return text
    }

    @Test("a snapshot is written as the same text as the Drawing it holds, in one batch at a time or several")
    func snapshotTextIsTheDrawings() {
        let drawing = drawing()
        let expected = DocumentCodec.encode(drawing)
        let snapshot = DrawingSnapshot(drawing)
        #expect(text(DocumentContent(snapshot), batchesAtOnce: 1) == expected)
        #expect(text(DocumentContent(snapshot), batchesAtOnce: 4) == expected)
    }

    @Test("a snapshot with shapes removed and put back is written in stacking order, as its Drawing")
    func editedSnapshotKeepsTheOrder() {
        var shapes = ShapeCollection(drawing())
        let removed = Array(shapes.order[3..<9]) + [shapes.order[shapes.count - 2]]
        let taken = removed.map { ($0, shapes[$0]!) }
        for id in removed { _ = shapes.remove(id) }
        shapes.append(.line(Line(begin: Point(x: 1, y: 2), end: Point(x: 3, y: 4))))
        for (id, shape) in taken.reversed() { shapes.restore(id, shape) }
        let snapshot = DrawingSnapshot(shapes: shapes, options: DrawingOptions())
        #expect(text(DocumentContent(snapshot), batchesAtOnce: 2) == DocumentCodec.encode(snapshot.drawing))
    }
}
