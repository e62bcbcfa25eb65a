import TouchKit

/// The gesture inspector (F1, DESIGN.md §2.11): whether it is shown, and each recognizer's last outcome as it saw
/// it, so the overlay can list the live touches and what every recognizer made of them.
final class GestureInspector {
    private(set) var isVisible = false
    /// Each recognizer's last outcome (began, ended, cancelled, failed).
    private var lastOutcomes: [ObjectIdentifier: GestureRecognizer.State] = [:]

    func toggle() {
        isVisible.toggle()
        lastOutcomes.removeAll()
    }

    /// Remembers `recognizer`'s state as its last outcome (not `.changed`: that is no outcome).
    func note(_ recognizer: GestureRecognizer) {
        guard isVisible, recognizer.state != .changed else { return }
        lastOutcomes[ObjectIdentifier(recognizer)] = recognizer.state
    }

    /// A failure is not reported to actions: it is noted after every event while the failed recognizer's touch is
    /// still down.
    func noteFailures(of recognizers: [GestureRecognizer]) {
        guard isVisible else { return }
        for recognizer in recognizers where recognizer.state == .failed { note(recognizer) }
    }

    /// What the inspector shows now, or nil while it is hidden.
    func snapshot(
        of window: Window, recognizers: [GestureRecognizer], rejected: [UInt64: Point] = [:]
    ) -> InspectorSnapshot? {
        guard isVisible else { return nil }
        let touches = window.activeTouches.sorted { $0.identifier < $1.identifier }.map {
            InspectorSnapshot.TouchMark(
                id: $0.identifier, location: $0.location(in: nil), phase: "\($0.phase)", type: "\($0.type)")
        }
        let palms = rejected.sorted { $0.key < $1.key }.map {
            InspectorSnapshot.TouchMark(id: $0.key, location: $0.value, phase: "rejected", isRejected: true)
        }
        let rows = recognizers.map { recognizer in
            InspectorSnapshot.RecognizerRow(
                name: recognizer.name ?? "\(type(of: recognizer))", state: "\(recognizer.state)",
                lastOutcome: lastOutcomes[ObjectIdentifier(recognizer)].map { "\($0)" })
        }
        return InspectorSnapshot(touches: touches + palms, recognizers: rows)
    }
}
