import CIntl
import Foundation
import TouchTracker
import TouchTrackerRender

/// The user's language for what the window shows, through glibc's gettext: the catalogs `touchtracker.mo`
/// compiled from `Resources/po` (by `make`, into `.build/locale`; by `make deb`, into `/usr/share/locale`).
/// `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` and `LANG` choose the language as in every GNU program.
public enum Localization {
    public static let domain = "touchtracker"

    /// Sets the messages' locale from the environment and finds the catalogs. Call once, before anything is drawn.
    /// Only `LC_MESSAGES` follows the environment: numbers keep the "C" locale, so `strtod` and every number
    /// written to a file or the terminal use a decimal point whatever the language.
    ///
    /// A language named in `LANG` (or `LC_ALL`, `LC_MESSAGES`) whose locale is not installed on the machine makes
    /// `setlocale` fall back to "C", and glibc's gettext translates nothing under "C". The messages then use the
    /// C.UTF-8 locale (always present) and the named language is handed to gettext through `LANGUAGE`, so the
    /// window still speaks it. And `LANGUAGE` alone (with no locale set, so "C") is followed too.
    public static func setUp(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let chosen = setlocale(LC_MESSAGES, "").map { String(cString: $0) }
        if chosen == nil {
            setlocale(LC_MESSAGES, "C.UTF-8")
            if environment["LANGUAGE"]?.isEmpty ?? true, let language = localeLanguage(environment: environment) {
                setenv("LANGUAGE", language, 1)
            }
        } else if chosen == "C" || chosen == "POSIX", !(environment["LANGUAGE"]?.isEmpty ?? true) {
            // gettext ignores LANGUAGE under the "C" locale; C.UTF-8 is the same locale that does not.
            setlocale(LC_MESSAGES, "C.UTF-8")
        }
        if let folder = catalogFolder(environment: environment) { bindtextdomain(domain, folder) }
        bind_textdomain_codeset(domain, "UTF-8")
        TextLanguage.set(language(environment: environment))
    }

    /// The language the user asked for: `LANGUAGE`'s first, else the locale's (`localeLanguage`).
    static func language(environment: [String: String]) -> String? {
        if let first = environment["LANGUAGE"]?.split(separator: ":").first { return String(first) }
        return localeLanguage(environment: environment)
    }

    /// The language of the messages' locale as the environment names it: the first of `LC_ALL`, `LC_MESSAGES` and
    /// `LANG` that is set, without its codeset and modifier ("de_DE.UTF-8" → "de_DE"); nil for none, "C" or
    /// "POSIX".
    static func localeLanguage(environment: [String: String]) -> String? {
        guard
            let name = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap({ environment[$0] }).first(where: {
                !$0.isEmpty
            }),
            let language = name.split(whereSeparator: { $0 == "." || $0 == "@" }).first,
            language != "C", language != "POSIX"
        else { return nil }
        return String(language)
    }

    /// `$TOUCHTRACKER_LOCALEDIR`, else `share/locale` beside the executable's folder (an installed package:
    /// `/usr/bin` → `/usr/share/locale`), else `make`'s `.build/locale` (the executable, its symbolic links
    /// resolved, is in `.build/ARCH/debug` or `release`).
    static func catalogFolder(environment: [String: String]) -> String? {
        if let folder = environment["TOUCHTRACKER_LOCALEDIR"], !folder.isEmpty { return folder }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let base = executable.deletingLastPathComponent().deletingLastPathComponent()
        for candidate in ["share/locale", "../locale"] {
            let folder = base.appendingPathComponent(candidate).standardizedFileURL.path
            if FileManager.default.fileExists(atPath: folder) { return folder }
        }
        return nil
    }

    /// `english` in the user's language, or as it is when no catalog has it; a counting text in the form the
    /// language's catalog chooses for the count (its `Plural-Forms`).
    public static let translate = Translate(
        text: { english in
            // gettext hands back its argument when it has no translation: copied while that C string still lives.
            english.withCString { String(cString: dgettext(domain, $0)) }
        },
        plural: { one, many, count in
            one.withCString { one in
                many.withCString { many in
                    String(cString: dngettext(domain, one, many, UInt(clamping: max(0, count))))
                }
            }
        })
}
