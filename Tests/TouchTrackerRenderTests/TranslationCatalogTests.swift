import Foundation
import Testing
import TouchTracker
import TouchTrackerDemoPainter

@testable import TouchTrackerRender

/// The catalogs in Resources/po against the texts the window shows: each catalog translates every one of them and
/// keeps its placeholders. (`make` also compiles each with `msgfmt --check` and fails on a missing translation.)
@Suite struct TranslationCatalogTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Resources/po")

    /// Every text the window translates.
    static let texts = Message.templates + DemoPainter.labels

    /// The catalog's msgid → msgstr pairs (single-line strings, as these catalogs write them, with PO's escapes for
    /// quotes, backslashes and newlines).
    static func catalog(_ name: String) throws -> [String: String] {
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        var entries: [String: String] = [:]
        var id: String?
        func unquote(_ line: Substring) -> String {
            var result = ""
            var escaped = false
            for character in line.drop(while: { $0 != "\"" }).dropFirst().dropLast() {
                if escaped {
                    result.append(character == "n" ? "\n" : character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else {
                    result.append(character)
                }
            }
            return result
        }
        for line in text.split(separator: "\n") {
            if line.hasPrefix("msgid ") {
                id = unquote(line)
            } else if line.hasPrefix("msgstr "), let current = id {
                entries[current] = unquote(line)
                id = nil
            }
        }
        return entries
    }

    /// The catalog's counting texts: msgid → (msgid_plural, the msgstr[N] forms in order).
    static func pluralCatalog(_ name: String) throws -> [String: (many: String, forms: [String])] {
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        var entries: [String: (many: String, forms: [String])] = [:]
        var id: String?
        for line in text.split(separator: "\n") {
            let value = String(line.drop(while: { $0 != "\"" }).dropFirst().dropLast())
            if line.hasPrefix("msgid ") {
                id = value
            } else if line.hasPrefix("msgid_plural "), let current = id {
                entries[current] = (value, [])
            } else if line.hasPrefix("msgstr["), let current = id {
                entries[current]?.forms.append(value)
            }
        }
        return entries
    }

    /// How many plural forms the catalog's language has (its header's `Plural-Forms: nplurals=N`).
    static func pluralFormCount(_ name: String) throws -> Int {
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        let field = try #require(text.firstRange(of: "nplurals="))
        return try #require(Int(text[field.upperBound...].prefix { $0.isNumber }))
    }

    static func placeholders(_ text: String) -> [String] {
        (1...9).map { "{\($0)}" }.filter { text.contains($0) }
    }

    @Test("the template lists every text the window translates, and nothing else", arguments: ["touchtracker.pot"])
    func templateMatchesCode(_ name: String) throws {
        let template = try Self.catalog(name).keys.filter { !$0.isEmpty }
        #expect(Set(template) == Set(Self.texts))
        let plurals = try Self.pluralCatalog(name)
        #expect(Set(plurals.keys) == Set(Message.pluralTemplates.map(\.one)))
        for (one, many) in Message.pluralTemplates { #expect(plurals[one]?.many == many) }
    }

    @Test(
        "each language gives every counting text as many forms as its plural rule has, each keeping only the count",
        arguments: ["de.po", "fr.po", "es.po", "ja.po", "ar.po"])
    func pluralFormsComplete(_ name: String) throws {
        let plurals = try Self.pluralCatalog(name)
        let count = try Self.pluralFormCount(name)
        for (one, many) in Message.pluralTemplates {
            let entry = try #require(plurals[one], "\(name) lacks \"\(one)\"")
            #expect(entry.many == many)
            #expect(entry.forms.count == count, "\(name): \(entry.forms)")
            for form in entry.forms {
                #expect(!form.isEmpty, "\(name) leaves a form of \"\(one)\" untranslated")
                // A form may leave the number out ("one line", "two lines"), but adds no other placeholder.
                #expect(Set(Self.placeholders(form)).isSubset(of: ["{1}"]), "\(name): \"\(form)\"")
            }
        }
    }

    @Test(
        "each language translates every text and keeps its placeholders",
        arguments: ["de.po", "fr.po", "es.po", "ja.po", "ar.po"])
    func catalogComplete(_ name: String) throws {
        let catalog = try Self.catalog(name)
        for text in Self.texts {
            let translation = try #require(catalog[text], "\(name) lacks \"\(text)\"")
            #expect(!translation.isEmpty, "\(name) leaves \"\(text)\" untranslated")
            #expect(Self.placeholders(translation) == Self.placeholders(text), "\(name): \"\(translation)\"")
        }
    }
}
