import Testing
import TouchTracker

@testable import TouchTrackerWayland

/// Key repeat, which on Wayland is the client's job (`wl_keyboard.repeat_info`).
@Suite("Key repeat")
struct KeyRepeatTests {
    @Test("a held key repeats after the delay, then at the rate")
    func repeatsAfterTheDelayAtTheRate() {
        var keys = KeyRepeat()
        keys.configure(rate: 10, delayMilliseconds: 500)
        keys.pressed(code: 105, repeats: true, at: 0)
        #expect(keys.due(at: 0.49) == nil)
        #expect(keys.due(at: 0.5) == 105)
        #expect(keys.nextDeadline == 0.6)
        #expect(keys.due(at: 0.55) == nil)
        #expect(keys.due(at: 0.6) == 105)
    }

    @Test("releasing the key stops it")
    func releaseStops() {
        var keys = KeyRepeat()
        keys.pressed(code: 105, repeats: true, at: 0)
        keys.released(code: 105)
        #expect(keys.nextDeadline == nil)
        #expect(keys.due(at: 10) == nil)
    }

    @Test("a key the keymap says does not repeat never repeats")
    func nonRepeatingKey() {
        var keys = KeyRepeat()
        keys.pressed(code: 29, repeats: false, at: 0)
        #expect(keys.nextDeadline == nil)
    }

    @Test("a rate of 0 turns repeating off")
    func rateZeroTurnsRepeatOff() {
        var keys = KeyRepeat()
        keys.configure(rate: 0, delayMilliseconds: 300)
        keys.pressed(code: 105, repeats: true, at: 0)
        #expect(keys.due(at: 5) == nil)
    }

    @Test("a loop that wakes late gets one repeat, not a burst")
    func lateLoopGetsOneRepeat() {
        var keys = KeyRepeat()
        keys.configure(rate: 25, delayMilliseconds: 100)
        keys.pressed(code: 105, repeats: true, at: 0)
        #expect(keys.due(at: 3) == 105)
        #expect(keys.due(at: 3) == nil)
    }
}
