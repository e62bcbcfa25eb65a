import BackgroundWork
import Dispatch
import Foundation
import Synchronization
import Testing

/// A worker's thread carries its name where the kernel shows it (`top -H`, `ps -L`, gdb).
@Suite struct ThreadNameTests {
    /// The name the kernel holds for the calling thread.
    static func nameOfThisThread() -> String {
        let text = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return String(text.dropLast(text.hasSuffix("\n") ? 1 : 0))
    }

    /// The kernel's name for the thread that runs `worker`'s jobs.
    static func kernelName(of worker: Worker) -> String {
        let seen = DispatchSemaphore(value: 0)
        let name = Mutex("")
        worker.submit {
            name.withLock { $0 = nameOfThisThread() }
            seen.signal()
        }
        seen.wait()
        return name.withLock { $0 }
    }

    @Test("a worker's thread is named for the kernel as it is named in the app")
    func workerThreadCarriesItsName() {
        let worker = Worker(name: "tile painter 3")
        defer { worker.stop() }
        #expect(Self.kernelName(of: worker) == "tile painter 3")
    }

    @Test("a name longer than the kernel keeps is cut to 15 bytes without splitting a character")
    func longNameIsCutOnACharacterBoundary() {
        let worker = Worker(name: "Zeichnung lesen für später")
        defer { worker.stop() }
        #expect(Self.kernelName(of: worker) == "Zeichnung lesen")
        let accented = Worker(name: "Zeichnungen prüfen")  // the ü takes bytes 15 and 16
        defer { accented.stop() }
        #expect(Self.kernelName(of: accented) == "Zeichnungen pr")
    }
}
