/// Turns an English text the window shows (a message template, a menu title, a demo label) into the user's
/// language. The platform supplies it (gettext); replay, export and tests keep the default, English.
public typealias Translate = @Sendable (String) -> String

/// The English text as it is.
public let untranslated: Translate = { $0 }
