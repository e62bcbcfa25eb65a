internal import CWayland
import Glibc
import TouchTracker

/// The compositor's keymap and the keyboard's state in libxkbcommon: turns a Wayland key code into the keysym name
/// and modifiers the app's `KeyMap` reads (the names X11's keysyms have: `z`, `Delete`, `Escape`, `F10`). Owns the
/// context, keymap and state, and frees them in one place.
final class XkbKeyboard {
    private let context: OpaquePointer
    private var keymap: OpaquePointer?
    private var state: OpaquePointer?

    init?() {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        self.context = context
    }

    deinit {
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        xkb_context_unref(context)
    }

    /// Reads the keymap the compositor sent as `size` bytes of text in `fd` (closed here). False when it cannot
    /// be read: keys are then ignored until a good one comes.
    @discardableResult
    func useKeymap(fd: Int32, size: Int) -> Bool {
        defer { close(fd) }
        // Since wl_seat version 7 the file must be mapped private: the compositor may share one for all clients.
        guard size > 0, let text = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), text != MAP_FAILED else {
            return false
        }
        defer { munmap(text, size) }
        guard
            let newKeymap = xkb_keymap_new_from_buffer(
                context, text.assumingMemoryBound(to: CChar.self), strnlen(text, size), XKB_KEYMAP_FORMAT_TEXT_V1,
                XKB_KEYMAP_COMPILE_NO_FLAGS),
            let newState = xkb_state_new(newKeymap)
        else {
            return false
        }
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        keymap = newKeymap
        state = newState
        return true
    }

    /// The compositor's `modifiers` event: which modifiers are held, latched and locked.
    func updateModifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        guard let state else { return }
        xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group)
    }

    /// Whether Ctrl and Shift are held now (what a scroll with them does is the session's).
    var controlAndShift: (control: Bool, shift: Bool) {
        guard let state else { return (false, false) }
        return (
            xkb_state_mod_name_is_active(state, "Control", XKB_STATE_MODS_EFFECTIVE) > 0,
            xkb_state_mod_name_is_active(state, "Shift", XKB_STATE_MODS_EFFECTIVE) > 0
        )
    }

    /// Key `code` (a Linux input code) pressed or released at `time` with the modifiers held now, as the AT-SPI
    /// registry is told of it (X11's terms: keysym, X key code, X's modifier mask); nil without a keymap or for a
    /// key with no symbol.
    func report(forKey code: UInt32, pressed: Bool, time: UInt32) -> KeyEventReport? {
        guard let state else { return nil }
        let keycode = code + 8
        let symbol = xkb_state_key_get_one_sym(state, keycode)
        guard symbol != 0 else { return nil }
        var modifiers: UInt32 = 0
        for (name, mask) in [
            ("Shift", KeyEventReport.shiftMask), ("Lock", KeyEventReport.lockMask),
            ("Control", KeyEventReport.controlMask), ("Mod1", KeyEventReport.mod1Mask),
            ("Mod2", KeyEventReport.mod2Mask), ("Mod4", KeyEventReport.mod4Mask),
        ] where xkb_state_mod_name_is_active(state, name, XKB_STATE_MODS_EFFECTIVE) > 0 {
            modifiers |= mask
        }
        var buffer = [CChar](repeating: 0, count: 64)
        let length = Int(xkb_state_key_get_utf8(state, keycode, &buffer, buffer.count))
        let typed =
            length > 0 && length < buffer.count
            ? String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        // Text a key types (not a control character such as Tab's or Return's), else the keysym's name.
        let isText = typed.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } && !typed.isEmpty
        var text = typed
        if !isText {
            var name = [CChar](repeating: 0, count: 64)
            let count = Int(xkb_keysym_get_name(symbol, &name, name.count))
            text =
                count > 0 && count < name.count
                ? String(decoding: name.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        }
        return KeyEventReport(
            pressed: pressed, keysym: symbol, keycode: keycode, modifiers: modifiers, time: time, text: text,
            isText: isText)
    }

    /// What key `code` (a Linux input code, as Wayland sends it) means with the modifiers held now, and whether it
    /// repeats while held; nil without a keymap or for a key with no symbol.
    func command(forKey code: UInt32) -> (command: KeyCommand, repeats: Bool)? {
        guard let state, let keymap else { return nil }
        // XKB key codes are the Linux ones plus 8 (the X11 heritage).
        let keycode = code + 8
        let symbol = xkb_state_key_get_one_sym(state, keycode)
        guard symbol != 0 else { return nil }
        var name = [CChar](repeating: 0, count: 64)
        let length = Int(xkb_keysym_get_name(symbol, &name, name.count))
        guard length > 0, length < name.count else { return nil }
        let control = xkb_state_mod_name_is_active(state, "Control", XKB_STATE_MODS_EFFECTIVE) > 0
        let shift = xkb_state_mod_name_is_active(state, "Shift", XKB_STATE_MODS_EFFECTIVE) > 0
        // Alt is XKB's Mod1, the logo (Super) key Mod4.
        let alt =
            xkb_state_mod_name_is_active(state, "Mod1", XKB_STATE_MODS_EFFECTIVE) > 0
            || xkb_state_mod_name_is_active(state, "Mod4", XKB_STATE_MODS_EFFECTIVE) > 0
        let command = KeyCommand(
            key: String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self), control: control,
            shift: shift, alt: alt)
        return (command, xkb_keymap_key_repeats(keymap, keycode) != 0)
    }
}
