// docs/json.md against the encoder: every JSON example in it parses, every field an example
// shows is one Kit's documents write under that name, and every field they write is shown or
// named in its section. Each document is filled by `FullSample` (every optional present, every
// list one long) and written by `VaultJSON.encode`, the encoder `--json` uses.
import Foundation
import SheafCore
import SheafKit
import XCTest

final class DocumentedJSONTests: XCTestCase {
    /// The documents of each section of docs/json.md, by its heading.
    static var documents: [String: [any Codable.Type]] { [
        "`sheaf ls --json`": [NoteListJSON.self],
        "`sheaf show NOTE --json`": [NoteJSON.self],
        "`sheaf write NOTE --json`, `sheaf append NOTE --if-match BLOB --json`": [GuardedWriteJSON.self],
        "`sheaf log [NOTE] --json`": [LogJSON.self],
        "`sheaf tags --json`": [TagListJSON.self],
        "`sheaf search QUERY --json`": [SearchJSON.self],
        "`sheaf backlinks NOTE --json`": [BacklinksJSON.self],
        "`sheaf attachments [--orphans] --json`": [AttachmentListJSON.self],
        "`sheaf pull|push|sync --json`": [SyncJSON.self],
        "`sheaf pull --dry-run --json`": [PullPreviewJSON.self],
        "`sheaf commit --json`": [CommitJSON.self],
        "`sheaf status --json`": [StatusJSON.self],
        "`sheaf conflicts --json`, `sheaf remote list --json`": [ConflictListJSON.self, RemoteListJSON.self],
        "`sheaf shares --json`": [ShareListJSON.self],
        "`sheaf doctor --json`": [DoctorJSON.self],
        "`sheaf watch --json`": [WatchEventJSON.self],
    ] }

    /// A section that documents its fields by pointing at another's ("the same `pull` object").
    static let namesFrom = ["`sheaf pull --dry-run --json`": "`sheaf pull|push|sync --json`"]
    /// Objects whose keys are data (a note's front-matter), not fields.
    static let freeForm: Set<String> = ["frontMatter"]

    func testEveryDocumentedJSONShapeIsWhatTheEncoderWrites() throws {
        let sections = try Self.sections()
        XCTAssertEqual(Set(sections.keys), Set(Self.documents.keys), "every section of docs/json.md has its documents here")
        for (heading, text) in sections {
            let examples = try Self.examples(in: text, heading: heading)
            XCTAssertFalse(examples.isEmpty, "\(heading) shows an example")
            let shown = examples.reduce(into: Set<String>()) { $0.formUnion(Self.keys(of: $1)) }
            var written = Set<String>()
            for type in Self.documents[heading] ?? [] {
                let data = try VaultJSON.encode(try FullSample.make(type))
                written.formUnion(Self.keys(of: try JSONSerialization.jsonObject(with: data)))
                // What a client reads back is what was written.
                XCTAssertEqual(try VaultJSON.encode(try VaultJSON.decode(type, from: data)), data, "\(type) reads back")
            }
            XCTAssertEqual(shown.subtracting(written), [], "\(heading): the docs show fields the encoder does not write")
            var named = Self.namedInProse(text)
            if let other = Self.namesFrom[heading], let otherText = sections[other] {
                named.formUnion(Self.namedInProse(otherText))
                named.formUnion(try Self.examples(in: otherText, heading: other).reduce(into: Set()) { $0.formUnion(Self.keys(of: $1)) })
            }
            XCTAssertEqual(written.subtracting(shown).subtracting(named), [],
                           "\(heading): the encoder writes fields the docs neither show nor name")
        }
    }

    func testEveryWatchEventKindWritesTheFieldsItsRowNames() throws {
        let rows = try Self.watchTable()
        let changes = VaultChangeSet(added: ["a.md"], changed: ["b.md"], removed: ["c.md"])
        let events: [VaultEvent] = [
            .started(pid: 42, folders: 3), .indexed(changes), .rescanned(reasons: ["lost"], changes: changes),
            .stopped(reason: "asked"), .synced(committed: true, pulled: changes, pushed: true),
            .committedLocally(summary: "sheaf: laptop: 1 edited"), .offline(remote: "origin", cause: "down", retryIn: 5),
            .online(remote: "origin"), .conflicts(paths: ["a.md"]), .syncWaiting(reason: "a rebase"),
            .problem(SheafError("failed", path: "a.md", cause: "why", hint: "what to do")),
            .warning(VaultWarning(path: "a.md", message: "unreadable")),
        ]
        var kinds = Set<String>()
        for event in events {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: VaultJSON.encode(XCTUnwrap(WatchEventJSON(event)), pretty: false)) as? [String: Any])
            let kind = try XCTUnwrap(object["kind"] as? String)
            kinds.insert(kind)
            let row = try XCTUnwrap(rows[kind], "the table has a row for \(kind)")
            let top = Set(object.keys).subtracting(["version", "kind", "time"])
            XCTAssertEqual(top.subtracting(row), [], "\(kind) writes fields its row does not name")
            XCTAssertEqual(row.subtracting(Self.keys(of: object)), [], "\(kind)'s row names fields it does not write")
        }
        XCTAssertEqual(Set(rows.keys), kinds, "the table's kinds are the events'")
    }

    // MARK: reading docs/json.md

    static func sections() throws -> [String: String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/json.md"), encoding: .utf8)
        var sections: [String: String] = [:]
        for part in text.components(separatedBy: "\n## ").dropFirst() {
            let heading = String(part.prefix { $0 != "\n" })
            sections[heading] = String(part.dropFirst(heading.count))
        }
        return sections
    }

    /// The fenced blocks and the inline spans that open a document (`{ "version"`), parsed. A
    /// block that is not one document is one per line (`watch --json`'s stream).
    static func examples(in text: String, heading: String) throws -> [Any] {
        var found: [Any] = []
        let fences = text.components(separatedBy: "```")
        for (i, piece) in fences.enumerated() where i % 2 == 1 {
            let body = piece.hasPrefix("json") ? String(piece.dropFirst(4)) : piece
            if let whole = try? JSONSerialization.jsonObject(with: Data(body.utf8)) {
                found.append(whole)
            } else {
                for line in body.split(separator: "\n") {
                    let object = try? JSONSerialization.jsonObject(with: Data(line.utf8))
                    XCTAssertNotNil(object, "\(heading): an example that is not JSON: \(line)")
                    if let object { found.append(object) }
                }
            }
        }
        for (i, piece) in fences.enumerated() where i % 2 == 0 {
            for span in piece.components(separatedBy: "`").enumerated().filter({ $0.offset % 2 == 1 }).map(\.element)
            where span.hasPrefix("{ \"version\"") {
                let object = try? JSONSerialization.jsonObject(with: Data(span.utf8))
                XCTAssertNotNil(object, "\(heading): an example that is not JSON: \(span)")
                if let object { found.append(object) }
            }
        }
        return found
    }

    /// The names in backticks outside the examples, and those quoted in them: fields the prose
    /// names (`error`, `{ "path", "reason" }`).
    static func namedInProse(_ text: String) -> Set<String> {
        let prose = text.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined()
        let spans = prose.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        let quoted = spans.flatMap { $0.components(separatedBy: "\"").enumerated().filter { $0.offset % 2 == 1 }.map(\.element) }
        return Set((spans + quoted).filter { !$0.isEmpty && $0.allSatisfy { $0.isLetter } })
    }

    /// `watch --json`'s table: each kind and the names in its fields column.
    static func watchTable() throws -> [String: Set<String>] {
        let text = try XCTUnwrap(sections()["`sheaf watch --json`"])
        var rows: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if cells[1] == "fields" { continue }  // the header
            rows[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = namedInProse(cells[1])
        }
        return rows
    }

    /// Every key of an object, at any depth (not those of free-form objects).
    static func keys(of value: Any) -> Set<String> {
        if let object = value as? [String: Any] {
            return object.reduce(into: Set(object.keys)) { if !freeForm.contains($1.key) { $0.formUnion(keys(of: $1.value)) } }
        }
        if let array = value as? [Any] { return array.reduce(into: Set()) { $0.formUnion(keys(of: $1)) } }
        return []
    }
}
