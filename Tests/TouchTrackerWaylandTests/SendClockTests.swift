import Foundation
import Testing
import TouchTrackerSession

@testable import TouchTrackerWayland

@Suite("When a commit left for the compositor (--trace-frames)")
struct SendClockTests {
    @Test("time the thread spends off the processor during the send is not counted")
    func waitingIsNotCounted() throws {
        let clock = SendClock()
        let began = MonotonicClock.now()
        clock.time { usleep(100_000) }
        let sent = try #require(clock.lastSent)
        #expect(sent >= began)
        #expect(sent - began < 0.05, "a 100 ms sleep counted as \(sent - began) s")
    }

    @Test("a frame that was not sent says no time, not the last frame's")
    func forgottenSendSaysNothing() {
        let clock = SendClock()
        clock.time {}
        clock.forget()
        #expect(clock.lastSent == nil)
    }

    @Test("the send's own processor time is counted")
    func workIsCounted() throws {
        let clock = SendClock()
        let began = MonotonicClock.now()
        clock.time {
            // 20 ms of this thread's processor time, spent.
            let start = threadProcessorTime()
            while threadProcessorTime() - start < 0.02 {}
        }
        let sent = try #require(clock.lastSent)
        #expect(sent - began >= 0.02)
    }
}

private func threadProcessorTime() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
