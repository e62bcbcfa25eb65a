/// The texts of New, Open… and Save As… (DESIGN.md §3g): the window's title, the file dialog's and its outcomes.
extension Message {
    /// An untitled drawing's name in the window's title: the first one "Untitled", the others numbered.
    public static func untitled(number: Int?) -> Message {
        number.map { Message(.untitledNumbered, .literal("\($0)")) } ?? Message(.untitled)
    }
    public static let openDialogTitle = Message(.openDialogTitle)
    public static let saveAsDialogTitle = Message(.saveAsDialogTitle)
    public static let drawingsFilter = Message(.drawingsFilter)
    public static let jsonDrawingsFilter = Message(.jsonDrawingsFilter)
    /// A Save As worked: the drawing's file name.
    public static func savedAs(_ name: String) -> Message { Message(.savedAs, .literal(name)) }
    /// A Save As did not: why, in English (as stderr says it).
    public static func saveAsFailed(_ reason: String) -> Message { Message(.saveAsFailed, .literal(reason)) }
    /// The desktop's file dialog did not answer: why, in English (as stderr says it).
    public static func noFileDialog(_ reason: String) -> Message { Message(.noFileDialog, .literal(reason)) }
}
