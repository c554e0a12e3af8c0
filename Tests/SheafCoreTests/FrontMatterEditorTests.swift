import Testing
@testable import SheafCore

@Suite struct FrontMatterEditorTests {
    let doc = """
    ---
    # a comment at the top
    title: "Lisbon: tram 28"   # quoted on purpose
    tags:
      - travel
      - 'food'
    aliases: [Lisboa, "Olisipo"]
    keywords: coffee, pastry
    location:
      lat: 38.71
      lon: -9.14
    rating: 4
    ---
    Body stays.
    #idea
    """

    func edit(_ text: String, _ body: (inout FrontMatterEditor) throws -> Void) throws -> String {
        var editor = try FrontMatterEditor(text: text)
        try body(&editor)
        return editor.text
    }

    @Test func unchangedDocumentRendersItsExactBytes() throws {
        #expect(try edit(doc) { _ in } == doc)
    }

    @Test func addToBlockListAppendsOneLineInItsIndentation() throws {
        let out = try edit(doc) { try $0.addItems(["x"], to: "tags") }
        #expect(out == doc.replacingOccurrences(of: "  - 'food'\n", with: "  - 'food'\n  - x\n"))
    }

    @Test func addToFlowListKeepsQuotesAndComment() throws {
        let out = try edit(doc) { try $0.addItems(["Lisbon city"], to: "aliases") }
        #expect(out.contains("aliases: [Lisboa, \"Olisipo\", Lisbon city]\n"))
        #expect(Lines.split(out).count == Lines.split(doc).count)
    }

    @Test func addToCommaStringKeepsItsSeparator() throws {
        let out = try edit(doc) { try $0.addItems(["tea"], to: "keywords") }
        #expect(out.contains("keywords: coffee, pastry, tea\n"))
    }

    @Test func addToSpaceStringKeepsItsSeparator() throws {
        let out = try edit("---\ntags: a b\n---\n") { try $0.addItems(["c"], to: "tags") }
        #expect(out == "---\ntags: a b c\n---\n")
    }

    @Test func addSkipsItemsAlreadyThereIgnoringCase() throws {
        var editor = try FrontMatterEditor(text: doc)
        let added = try editor.addItems(["Travel", "new"], to: "tags", normalize: { $0.lowercased() })
        #expect(added == ["new"])
    }

    @Test func addToMissingKeyAppendsABlockListInTheDocumentsStyle() throws {
        let text = "---\ntitle: A\nother:\n- x\n---\nbody\n"
        let out = try edit(text) { try $0.addItems(["t1", "t2"], to: "tags") }
        #expect(out == "---\ntitle: A\nother:\n- x\ntags:\n- t1\n- t2\n---\nbody\n")
    }

    @Test func addToNoteWithoutFrontMatterPrependsABlockAndKeepsTheBody() throws {
        let out = try edit("# Title\n\ntext\n") { try $0.addItems(["a"], to: "tags") }
        #expect(out == "---\ntags:\n  - a\n---\n# Title\n\ntext\n")
    }

    @Test func addToEmptyKeyStartsABlockList() throws {
        let out = try edit("---\ntags:\ntitle: T\n---\n") { try $0.addItems(["a"], to: "tags") }
        #expect(out == "---\ntags:\n  - a\ntitle: T\n---\n")
    }

    @Test func addToEmptyFlowList() throws {
        #expect(try edit("---\ntags: []\n---\n") { try $0.addItems(["a", "b"], to: "tags") } == "---\ntags: [a, b]\n---\n")
    }

    @Test func valuesThatNeedQuotesAreQuoted() throws {
        let out = try edit("---\ntags: [a]\n---\n") { try $0.addItems(["x, y", "#hash", "null"], to: "tags") }
        #expect(out == "---\ntags: [a, \"x, y\", \"#hash\", \"null\"]\n---\n")
        let parsed = try FrontMatter(parsing: NoteDocument(text: out).frontMatter!)
        #expect(parsed["tags"] == .list([.scalar("a"), .scalar("x, y"), .scalar("#hash"), .scalar("null")]))
    }

    @Test func removeFromBlockListDropsOnlyThatLine() throws {
        let out = try edit(doc) { try $0.removeItems(["food"], from: "tags") }
        #expect(out == doc.replacingOccurrences(of: "  - 'food'\n", with: ""))
    }

    @Test func removeFromFlowListKeepsTheOthersAsWritten() throws {
        let out = try edit(doc) { try $0.removeItems(["Lisboa"], from: "aliases") }
        #expect(out.contains("aliases: [\"Olisipo\"]\n"))
    }

    @Test func removeFromString() throws {
        let out = try edit(doc) { try $0.removeItems(["coffee"], from: "keywords") }
        #expect(out.contains("keywords: pastry\n"))
    }

    @Test func setExistingKeyKeepsItsPlaceAndComment() throws {
        let out = try edit(doc) { try $0.set("title", to: "Porto") }
        #expect(out == doc.replacingOccurrences(of: "title: \"Lisbon: tram 28\"   # quoted on purpose", with: "title: Porto   # quoted on purpose"))
    }

    @Test func setReplacesANestedMappingWithAScalar() throws {
        let out = try edit(doc) { try $0.set("location", to: "Lisbon") }
        #expect(out.contains("location: Lisbon\nrating: 4\n"))
        #expect(!out.contains("lat:"))
    }

    @Test func setNewKeyGoesLast() throws {
        let out = try edit(doc) { try $0.set("status", to: "done") }
        #expect(out.contains("rating: 4\nstatus: done\n---\n"))
    }

    @Test func removeKeyLeavesCommentsAndOtherKeys() throws {
        let out = try edit(doc) { _ = try $0.remove("tags") }
        #expect(out == doc.replacingOccurrences(of: "tags:\n  - travel\n  - 'food'\n", with: ""))
    }

    @Test func crlfNoteGetsCrlfLines() throws {
        let text = "---\r\ntitle: A\r\ntags:\r\n  - a\r\n---\r\nbody\r\n"
        let out = try edit(text) { try $0.addItems(["b"], to: "tags") }
        #expect(out == "---\r\ntitle: A\r\ntags:\r\n  - a\r\n  - b\r\n---\r\nbody\r\n")
        let out2 = try edit(text) { try $0.set("status", to: "x") }
        #expect(out2 == "---\r\ntitle: A\r\ntags:\r\n  - a\r\nstatus: x\r\n---\r\nbody\r\n")
    }

    @Test func bomSurvivesAnEdit() throws {
        let text = "\u{FEFF}---\ntags: [a]\n---\nbody\n"
        let out = try edit(text) { try $0.addItems(["b"], to: "tags") }
        #expect(out == "\u{FEFF}---\ntags: [a, b]\n---\nbody\n")
    }

    @Test func brokenYAMLIsRefused() {
        #expect(throws: FrontMatterError.self) { try FrontMatterEditor(text: "---\ntags: [unclosed\n---\nbody\n") }
    }

    @Test func quotedKeysAreFound() throws {
        let out = try edit("---\n\"my key\": 1\n'other': [a]\n---\n") { try $0.addItems(["b"], to: "other") }
        #expect(out == "---\n\"my key\": 1\n'other': [a, b]\n---\n")
    }

    @Test func keyInsideNestedMappingIsNotTopLevel() throws {
        let text = "---\nmeta:\n  tags: [x]\n---\n"
        let out = try edit(text) { try $0.addItems(["a"], to: "tags") }
        #expect(out == "---\nmeta:\n  tags: [x]\ntags:\n  - a\n---\n")
    }

    /// Fuzz find: `aliases: ~` is YAML null, an empty list; adding to it wrote `aliases: ~ a`,
    /// which reads as a list whose first item is `~`.
    @Test func addToNullListKeyReplacesTheNullInsteadOfKeepingATildeItem() throws {
        for null in ["~", "null", "Null", "NULL"] {
            let out = try edit("---\naliases: \(null)  # none yet\ntitle: T\n---\n") { try $0.addItems(["a", "b c"], to: "aliases") }
            #expect(out == "---\naliases: [a, b c]  # none yet\ntitle: T\n---\n")
            let fm = try FrontMatter(parsing: try #require(NoteDocument(text: out).frontMatter))
            #expect(fm.stringList("aliases") == ["a", "b c"])
        }
        #expect(try edit("---\naliases: ~\n---\n") { try $0.removeItems(["~"], from: "aliases") } == "---\naliases: ~\n---\n",
                "a null holds no item to remove")
    }

    /// Hostile find: `==` on Swift strings equates "café" and "cafe\u{301}"; YAML does not.
    @Test func keysThatDifferOnlyInUnicodeNormalizationAreDifferentKeys() throws {
        let text = "---\ncafé: 1\ncafe\u{301}: 2\n---\n"
        let out = try edit(text) { try $0.set("cafe\u{301}", to: "x") }
        #expect(Array(out.utf8) == Array("---\ncafé: 1\ncafe\u{301}: x\n---\n".utf8))
        let fm = try FrontMatter(parsing: try #require(NoteDocument(text: text).frontMatter))
        #expect(fm["cafe\u{301}"] == .scalar("2") && fm["café"] == .scalar("1"))
        #expect(YAMLValue.scalar("café") != .scalar("cafe\u{301}"))
    }
}

/// Issue 23, item 14: `tags add` then `tags remove` of the same tag left an empty `tags:` line.
@Suite struct AddThenRemoveTests {
    @Test func addingThenRemovingATagGivesTheNoteBackByteForByte() throws {
        for original in ["---\ntitle: A\n---\nbody\n", "---\ntitle: A\r\nid: 1\r\n---\r\nbody\r\n",
                         "---\ntags: [a]\n---\n", "---\ntags:\n  - a\n---\n", "---\ntags: a b\n---\n"] {
            var editor = try FrontMatterEditor(text: original)
            _ = try editor.addItems(["new-tag"], to: "tags")
            #expect(editor.text != original)
            _ = try editor.removeItems(["new-tag"], from: "tags")
            #expect(editor.text == original, "\(original.debugDescription) -> \(editor.text.debugDescription)")
        }
        // A list emptied that had a comment on its key keeps the key.
        var commented = try FrontMatterEditor(text: "---\ntags: # mine\n  - a\n---\n")
        _ = try commented.removeItems(["a"], from: "tags")
        #expect(commented.text == "---\ntags: # mine\n---\n")
    }
}
