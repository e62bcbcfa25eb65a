import Foundation
import Testing

/// The protocol code in Sources/CWayland is what wayland-scanner makes of Debian's wayland-protocols today.
@Suite("Wayland protocol code")
struct WaylandProtocolCodeTests {
    @Test("the committed protocol code matches what regenerate.sh makes now")
    func committedCodeMatchesTheScanner() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/CWayland")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("protocols-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = folder.appendingPathComponent("regenerate.sh")
        process.arguments = [output.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for subfolder in ["include", "protocols"] {
            let made = try FileManager.default.contentsOfDirectory(
                atPath: output.appendingPathComponent(subfolder).path)
            #expect(!made.isEmpty)
            for name in made {
                let fresh = try Data(contentsOf: output.appendingPathComponent(subfolder).appendingPathComponent(name))
                let committed = try Data(
                    contentsOf: folder.appendingPathComponent(subfolder).appendingPathComponent(name))
                #expect(fresh == committed, "\(subfolder)/\(name) differs: run make wayland-protocols")
            }
        }
    }
}
