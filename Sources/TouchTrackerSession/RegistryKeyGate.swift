import Synchronization
import TouchTracker
import TouchTrackerAccessibility

/// Keys on their way to the app through the AT-SPI registry: while a screen reader listens, each key
/// pressed or released is told to the registry first, and the app acts on a press only once the registry says no
/// screen reader consumed it. The event loop never waits for the answer: keys wait here, in the order they came,
/// and the answers (from the bridge's worker) wake the loop. With no screen reader listening, and nothing waiting,
/// a key goes to the app at once.
final class RegistryKeyGate {
    /// Keys told to the registry and not yet answered, oldest first: each one's number and the command its press
    /// carries (nil: a release, or a key the app has no use for).
    private var waiting: [(number: Int, command: KeyCommand?)] = []
    private var lastNumber = 0
    private let answers = RegistryKeyAnswers()
    private let wakeUp: @Sendable () -> Void

    init(wakeUp: @escaping @Sendable () -> Void) {
        self.wakeUp = wakeUp
    }

    /// How many keys wait for the registry's answer.
    var waitingCount: Int { waiting.count }

    /// One key from the window system: `act` gets its command now, or later from `actOnAnswered` (or never, if a
    /// screen reader consumed it).
    func pass(
        _ report: KeyEventReport, command: KeyCommand?, through bridge: AccessibilityBridge?,
        act: (KeyCommand) -> Void
    ) {
        guard let bridge, bridge.screenReaderListensToKeys || !waiting.isEmpty else {
            if let command { act(command) }
            return
        }
        lastNumber += 1
        let number = lastNumber
        waiting.append((number, command))
        let answers = answers
        let wakeUp = wakeUp
        bridge.passKeyToRegistry(report) { consumed in
            answers.post(number, consumed: consumed)
            wakeUp()
        }
    }

    /// Acts on the waiting keys the registry has answered for, in order, up to the first still unanswered.
    func actOnAnswered(_ act: (KeyCommand) -> Void) {
        guard !waiting.isEmpty else { return }
        answers.keep(answers.take())
        while let first = waiting.first, let consumed = answers.remove(first.number) {
            waiting.removeFirst()
            if !consumed, let command = first.command { act(command) }
        }
    }
}

/// The registry's answers, posted from the bridge's worker and taken on the event loop: key number → consumed.
final class RegistryKeyAnswers: Sendable {
    private let posted = Mutex<[Int: Bool]>([:])
    /// Answers taken but not yet acted on (a key before them still waits); touched only on the event loop, under
    /// the same lock for simplicity.
    private let kept = Mutex<[Int: Bool]>([:])

    func post(_ number: Int, consumed: Bool) {
        posted.withLock { $0[number] = consumed }
    }

    func take() -> [Int: Bool] {
        posted.withLock { posted in
            defer { posted.removeAll() }
            return posted
        }
    }

    func keep(_ answers: [Int: Bool]) {
        kept.withLock { $0.merge(answers) { $1 } }
    }

    func remove(_ number: Int) -> Bool? {
        kept.withLock { $0.removeValue(forKey: number) }
    }
}
