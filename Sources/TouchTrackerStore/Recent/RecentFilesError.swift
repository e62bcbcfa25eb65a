/// Why a drawing could not be recorded among the desktop's recent files: the bookmark file and what is wrong.
public struct RecentFilesError: Error, CustomStringConvertible, Equatable {
    /// The bookmark file, or the drawing whose name cannot be made a URI.
    public var path: String
    public var problem: String

    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    /// One line: `recent files PATH: PROBLEM`, the path's odd bytes shown as `\xHH`.
    public var description: String {
        "recent files \(PathText.shown(path)): \(problem)"
    }
}
