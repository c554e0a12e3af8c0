// Every front-matter edit Sheaf makes, on front-matter shapes the line editor does not fully
// understand: mappings modelled on the YAML 1.2 spec's examples (chapters 2 and 8: block and flow
// collections, block scalars with every chomping, explicit keys, anchors and aliases, comments,
// multi-line scalars) plus tabs, CRLF, a BOM and document markers. Tags after a flow mapping, or
// after a block scalar that keeps its trailing blank or space-only lines, left YAML that did not
// parse or whose values had changed (16 of 134 such cases). Each edit now either reads back as
// exactly the intended data or is refused with the note untouched.
import Testing
@testable import SheafCore

@Suite struct FrontMatterEditCorpusTests {
    static let blocks: [String] = [
        "hr: 65\navg: 0.278\nrbi: 147\n",
        "american:\n  - Boston Red Sox\n  - Detroit Tigers\nnational:\n  - New York Mets\n",
        "name: Mark McGwire\n# a comment line\nhr: 65 # trailing comment\n",
        "{a: 1, b: 2}\n",
        "{ a: 1,\n  b: 2 }\n",
        "? complex key\n: its value\nplain: x\n",
        "anchored: &A value\nalias: *A\n",
        "base: &B {x: 1}\nderived: *B\n",
        "keep: |+\n  text\n\n\n",
        "keep: |+\n  text\n\n",
        "clip: |\n  text\n   \n",
        "clip: |\n  text\n\n",
        "strip: |-\n  text\n\n",
        "folded: >\n  one\n  two\n\n  three\n",
        "folded_keep: >+\n  a\n\n",
        "folded_strip: >-\n  folded\n  text\n\n\n",
        "literal: |2\n    indented\n",
        "plain multi: first line\n  continues here\nnext: x\n",
        "quoted: \"multi\n  line\"\nnext: y\n",
        "single: 'it''s'\n",
        "tags: [a, b]\nother: {c: d}\n",
        "tags:\n- a\n- b\n",
        "tags:\n  - a\n  - b\n",
        "tags: a, b\n",
        "tags: a b\n",
        "tags: ~\n",
        "tags:\n",
        "tags: [a,\n  b]\n",
        "tags: |\n  a b\n",
        "tags: >\n  a\n  b\n",
        "tags:\n  - a\n  # between\n  - b\n",
        "tags:\n  - a\n  \n  - b\n",
        "tags:\n  - name: x\n    value: 1\n",
        "tags: &T [a]\ncopy: *T\n",
        "key:\twith a tab\n",
        "date: 2001-12-14t21:59:43.10-05:00\n",
        "a: 1\n...\n",
        "empty:\nnext: 1\n",
        "nested:\n  deeper:\n    deepest: 1\n",
        "\"quoted key\": 1\n'single key': 2\n",
        "url: http://example.com/a#b\n",
        "list_of_maps:\n  - name: x\n    value: 1\n  - name: y\n",
        "sequence_in_seq:\n- - a\n  - b\n",
        "null_key: null\nbool: yes\n",
        "a: 1\n\n\n",
        "id: old\nconflict-of: Notes/A.md\ntitle: T\n",
        "text: |\n  body\n  \nlast: 1\n",
        "map:\n  ? a\n  : b\n",
        "tagged: !custom value\n",
    ]

    /// Each block as written, with CRLF line endings, and after a BOM.
    static var documents: [String] {
        blocks.flatMap { block -> [String] in
            let text = "---\n" + block + "---\nbody\n"
            return [text, text.replacingOccurrences(of: "\n", with: "\r\n"), "\u{FEFF}" + text]
        }
    }

    struct Edit {
        let name: String
        let key: String
        let apply: (inout FrontMatterEditor) throws -> Void
        /// The key's value afterwards, from its value before; `.some(nil)`: the key is gone.
        let intended: (YAMLValue?) -> YAMLValue??
    }

    static var edits: [Edit] { [
        Edit(name: "tags add", key: "tags", apply: { _ = try $0.addItems(["new-tag"], to: "tags") }, intended: { before in
            switch before {
            case nil, .null?: return YAMLValue.list([.scalar("new-tag")])
            case .list(let items)?: return YAMLValue.list(items + [.scalar("new-tag")])
            case .scalar(let s)?: return YAMLValue.scalar(([s, "new-tag"]).filter { !$0.isEmpty }.joined(separator: s.contains(",") ? ", " : " "))
            case .map?: return .some(nil) // cannot be intended: the edit must be refused
            }
        }),
        Edit(name: "tags remove", key: "tags", apply: { _ = try $0.removeItems(["a"], from: "tags") }, intended: { before in
            switch before {
            case .list(let items)?:
                let kept = items.filter { $0 != YAMLValue.scalar("a") }
                return kept.isEmpty ? YAMLValue.null : YAMLValue.list(kept)
            case .scalar(let s)?:
                let kept = FrontMatter.splitList(s).filter { $0 != "a" }.joined(separator: s.contains(",") ? ", " : " ")
                return kept.isEmpty ? YAMLValue.null : YAMLValue.scalar(kept)
            default: return .some(before)
            }
        }),
        Edit(name: "set conflict-of", key: "conflict-of", apply: { try $0.set("conflict-of", to: "Notes/Original note.md") },
             intended: { _ in YAMLValue.scalar("Notes/Original note.md") }),
        Edit(name: "set id", key: "id", apply: { try $0.set("id", to: "0b6e-12") }, intended: { _ in YAMLValue.scalar("0b6e-12") }),
        Edit(name: "remove conflict-of", key: "conflict-of", apply: { _ = try $0.remove("conflict-of") }, intended: { _ in .some(nil) }),
        Edit(name: "replace id", key: "id", apply: { try $0.replaceLines(of: "id", with: ["id: from-the-other-side\n"], after: "title") },
             intended: { _ in YAMLValue.scalar("from-the-other-side") }),
    ] }

    @Test func everyFrontMatterEditOfUnusualYAMLReadsBackAsIntendedOrLeavesTheNoteUntouched() throws {
        var refused: [String] = []
        var made = 0
        for text in Self.documents {
            guard let start = try? FrontMatterEditor(text: text) else { continue }  // not valid YAML: never edited
            let before = start.frontMatter
            for edit in Self.edits {
                var editor = start
                do {
                    try edit.apply(&editor)
                } catch {
                    #expect(editor.text == text, "\(edit.name) refused but changed \(text.debugDescription)")
                    refused.append("\(edit.name): \(text.debugDescription)")
                    continue
                }
                made += 1
                let document = NoteDocument(text: editor.text)
                #expect(document.body == NoteDocument(text: text).body)
                var after = FrontMatter()
                if let block = document.frontMatter {
                    guard let parsed = try? FrontMatter(parsing: block) else {
                        Issue.record("\(edit.name) broke the YAML of \(text.debugDescription): \(editor.text.debugDescription)")
                        continue
                    }
                    after = parsed
                }
                let others = { (fm: FrontMatter) in FrontMatter(entries: fm.entries.filter { !$0.key.isIdentical(to: edit.key) }) }
                #expect(others(after) == others(before), "\(edit.name) changed another value in \(text.debugDescription): \(editor.text.debugDescription)")
                let values = after.entries.filter { $0.key.isIdentical(to: edit.key) }.map(\.value)
                // An emptied list may read as null or as [].
                let emptied = { (v: YAMLValue?) in v == .list([]) ? YAMLValue.null : v }
                let intended = edit.intended(before[edit.key])
                #expect(values.count <= 1 && intended.map { emptied($0) == emptied(values.first) } == true,
                        "\(edit.name) on \(text.debugDescription) gave \(editor.text.debugDescription)")
            }
        }
        // The corpus is edited, not refused wholesale: shapes a line edit can serve are served,
        // among them the block scalars that keep trailing blank or space-only lines.
        #expect(made > refused.count * 4, "\(made) made, refused: \(refused)")
        for block in ["keep: |+\n  text\n\n\n", "clip: |\n  text\n   \n", "folded_keep: >+\n  a\n\n"] {
            var editor = try FrontMatterEditor(text: "---\n" + block + "---\nbody\n")
            try editor.addItems(["x"], to: "tags")
            #expect(try FrontMatter(parsing: #require(editor.document.frontMatter))["tags"] == .list([.scalar("x")]))
        }
    }

    /// A top-level flow mapping has no lines of its own per key: an edit is refused, and says why.
    @Test func tagsAddAfterATopLevelFlowMappingIsRefusedWithTheReason() throws {
        let text = "---\n{a: 1, b: 2}\n---\nbody\n"
        var editor = try FrontMatterEditor(text: text)
        #expect(throws: FrontMatterEditRefusal(key: "tags")) { try editor.addItems(["x"], to: "tags") }
        #expect(editor.text == text)
        #expect(FrontMatterEditRefusal(key: "tags").description.contains("the note was left as it is"))
    }
}
