/// Turns an English text the window shows (a message template, a menu title, a demo label) into the user's
/// language. The platform supplies it (gettext); replay, export and tests keep the default, English.
public struct Translate: Sendable {
    private let text: @Sendable (String) -> String
    private let plural: @Sendable (_ one: String, _ many: String, _ count: Int) -> String

    /// `text` translates one text; `plural` chooses and translates the form of a text that counts something, by
    /// the language's own rule (`ngettext`: French says "0 ligne", Arabic has six forms). Without `plural`, English's
    /// rule: `one` for 1, `many` for any other count.
    public init(
        text: @escaping @Sendable (String) -> String,
        plural: (@Sendable (_ one: String, _ many: String, _ count: Int) -> String)? = nil
    ) {
        self.text = text
        self.plural = plural ?? { one, many, count in text(count == 1 ? one : many) }
    }

    /// `english` in the user's language.
    public func callAsFunction(_ english: String) -> String { text(english) }

    /// The form of a counting text for `count`, in the user's language: `one` and `many` are English's forms.
    public func callAsFunction(one: String, many: String, count: Int) -> String { plural(one, many, count) }
}

/// The English text as it is.
public let untranslated = Translate(text: { $0 })
