import ArgumentParser
import Foundation
import TouchTracker
import TouchTrackerRender
import TouchTrackerStore

/// `touchtracker thumbnail --size N IN OUT`: a drawing as a file manager's thumbnail (the freedesktop thumbnailer
/// command a `.thumbnailer` file names: GNOME's Files and Xfce's Tumbler run it with the size they want).
struct Thumbnail: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Write a PNG thumbnail of a drawing, at most SIZE pixels a side.",
        usage: """
            touchtracker thumbnail --size <N> <document> <out>
            """,
        discussion: """
            The shapes, cropped to what is drawn and scaled down to fit (never up). File managers run it through \
            the thumbnailer file that make install puts in share/thumbnailers. A document that cannot be read is \
            reported in one line and nothing is written (status 1).
            """
    )

    /// The largest thumbnail asked for: freedesktop's largest size is 1024 ("xx-large").
    static let largestSize = 4096

    @Option(help: ArgumentHelp("The longest side, in pixels (1 to \(largestSize)).", valueName: "N"))
    var size: Int

    @Argument(help: ArgumentHelp("The document (JSON) to draw.", valueName: "document"))
    var document: String

    @Argument(help: ArgumentHelp("Write the PNG here.", valueName: "out"))
    var out: String

    func validate() throws {
        guard (1...Self.largestSize).contains(size) else {
            throw ValidationError("--size \(size) is not between 1 and \(Self.largestSize) pixels")
        }
        try PathOption.validate(document, option: "the document")
        try PathOption.validate(out, option: "the thumbnail")
        try PathOption.validate(output: out, option: "the thumbnail", isNot: document)
    }

    func run() throws {
        InterruptCleanup.install()
        let drawing = try DocumentLoading.loadOrExit(document)
        do {
            // A thumbnailer's host makes the output empty and reads it back through its own descriptor.
            try AtomicFile.writeIntoPlaceholder(DrawingThumbnail.png(of: drawing, maximumSide: size), to: out)
        } catch let error as DocumentFileError {
            Diagnostics.error("cannot write \(error)")
            throw ExitCode(1)
        } catch {
            Diagnostics.error("cannot write \(Diagnostics.shown(out)): \(error)")
            throw ExitCode(1)
        }
    }
}
