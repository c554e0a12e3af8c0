import Foundation
import TestSupport
import Testing

@Suite struct NoteCommandTests {
    @Test func newThenSedThenShellMvShowsCorrectly() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let made = CLI.run(["new", "Groceries: week 47", "--folder", "Inbox", "--tag", "home", "--tag", "#food", "--body", "-"], in: vault, stdin: "- milk\n- bread\n")
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout == "Inbox/Groceries week 47.md\n")
        let text = CLI.read(vault + "/Inbox/Groceries week 47.md")
        #expect(text.hasPrefix("---\nid: "))
        #expect(text.contains("\ntitle: \"Groceries: week 47\"\n"))
        #expect(text.contains("\ncreated: 20"))
        #expect(text.contains("\ntags:\n  - home\n  - food\n---\n\n- milk\n- bread\n"))

        #expect(CLI.sh("sed -i 's/bread/oat bread/' 'Inbox/Groceries week 47.md' && mkdir -p Home && mv 'Inbox/Groceries week 47.md' Home/groceries.md", in: vault).status == 0)
        let ls = CLI.run(["ls", "--tag", "home"], in: vault)
        #expect(ls.status == 0)
        #expect(ls.stdout.contains("Groceries: week 47"))
        #expect(ls.stdout.contains("Home/groceries.md"))
        #expect(ls.stdout.contains("milk bread") == false)
        #expect(ls.stdout.contains("milk oat bread"))
        let show = CLI.run(["show", "Groceries: week 47"], in: vault)
        #expect(show.status == 0)
        #expect(show.stdout.contains("- oat bread\n"))
    }

    @Test func newFromBodyOptionAndClashGetsANumber() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        #expect(CLI.run(["new", "Same", "--body", "one"], in: vault).stdout == "Same.md\n")
        #expect(CLI.run(["new", "Same", "--body", "two"], in: vault).stdout == "Same 2.md\n")
        #expect(CLI.read(vault + "/Same 2.md").hasSuffix("\n\ntwo\n"))
    }

    @Test func newWarnsWhenANameDiffersOnlyByCase() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("x\n", to: vault + "/shopping.md")
        let r = CLI.run(["new", "Shopping"], in: vault)
        #expect(r.status == 0)
        #expect(r.stderr.contains("differs only by case from shopping.md"))
    }

    @Test func newWithEditRunsTheEditor() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let editor = temp.path + "/editor.sh"
        CLI.write("#!/bin/sh\necho 'written in the editor' >> \"$1\"\n", to: editor)
        chmod(editor, 0o755)
        let r = CLI.run(["new", "Edited", "--edit"], in: vault, environment: ["EDITOR": editor])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(CLI.read(vault + "/Edited.md").hasSuffix("written in the editor\n"))
        let e = CLI.run(["edit", "Edited"], in: vault, environment: ["VISUAL": editor, "EDITOR": "false"])
        #expect(e.status == 0)
        #expect(CLI.read(vault + "/Edited.md").components(separatedBy: "written in the editor").count == 3)
        let failing = CLI.run(["edit", "Edited"], in: vault, environment: ["EDITOR": "false"])
        #expect(failing.status == 2)
        #expect(failing.stderr.contains("the editor failed"))
    }

    @Test func appendAddsALineAndKeepsCRLF() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("---\r\ntitle: Windows note\r\n---\r\nfirst\r\n", to: vault + "/win.md")
        #expect(CLI.run(["append", "Windows note", "second", "line"], in: vault).status == 0)
        #expect(CLI.run(["append", "win.md"], in: vault, stdin: "third\n").status == 0)
        #expect(CLI.read(vault + "/win.md") == "---\r\ntitle: Windows note\r\n---\r\nfirst\r\nsecond line\r\nthird\r\n")
        CLI.write("no newline at end", to: vault + "/plain.md")
        #expect(CLI.run(["append", "plain", "next"], in: vault).status == 0)
        #expect(CLI.read(vault + "/plain.md") == "no newline at end\nnext\n")
    }

    @Test func tagsAddChangesOnlyTheTagsLines() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("---\n# keep me\ntitle: 'Tagged'\ntags:\n  - one   # first\nrating: 4\n---\nBody #inline\n", to: vault + "/t.md")
        let r = CLI.run(["tags", "add", "Tagged", "two", "#three", "inline", "ONE"], in: vault)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("added two, three"))
        #expect(CLI.read(vault + "/t.md") == "---\n# keep me\ntitle: 'Tagged'\ntags:\n  - one   # first\n  - two\n  - three\nrating: 4\n---\nBody #inline\n")
        let rm = CLI.run(["tags", "remove", "t.md", "two", "inline"], in: vault)
        #expect(rm.status == 0)
        #expect(rm.stderr.contains("#inline is written in the body"))
        #expect(CLI.read(vault + "/t.md") == "---\n# keep me\ntitle: 'Tagged'\ntags:\n  - one   # first\n  - three\nrating: 4\n---\nBody #inline\n")
    }

    @Test func tagsListCountsAndJSON() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("#Zeta #zeta\n", to: vault + "/z1.md")
        CLI.write("---\ntags: [zeta]\n---\n", to: vault + "/z2.md")
        let r = CLI.run(["tags", "--json"], in: vault)
        #expect(r.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect(json["version"] as? Int == 1)
        let tags = json["tags"] as! [[String: Any]]
        let zeta = tags.first { ($0["tag"] as? String)?.lowercased() == "zeta" }
        #expect(zeta?["count"] as? Int == 2)
        let plain = CLI.run(["tags"], in: vault)
        #expect(plain.stdout.split(separator: "\n").contains { $0.hasSuffix(" zeta") || $0.hasSuffix(" Zeta") })
    }

    @Test func lsFiltersSortsLimitsAndExitsOneWhenNothingMatches() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let all = CLI.run(["ls", "--paths", "--sort", "path"], in: vault)
        let paths = all.stdout.split(separator: "\n").map(String.init)
        #expect(paths == paths.sorted())
        #expect(!paths.contains { $0.hasPrefix(".") || $0.contains("/.") })
        #expect(CLI.run(["ls", "--paths", "--limit", "3"], in: vault).stdout.split(separator: "\n").count == 3)
        let none = CLI.run(["ls", "--tag", "no-such-tag-anywhere"], in: vault)
        #expect(none.status == 1)
        #expect(none.stdout.isEmpty)
        let json = CLI.run(["ls", "--json", "--limit", "2"], in: vault)
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        #expect(parsed["version"] as? Int == 1)
        #expect((parsed["notes"] as! [Any]).count == 2)
    }

    @Test func brokenNotesGiveWarningsNotCrashes() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("---\ntags: [oops\n---\nstill text\n", to: vault + "/bad-yaml.md")
        try! Data([0x23, 0x20, 0x43, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: vault + "/latin1.md"))
        try! Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0x01, 0x02]).write(to: URL(fileURLWithPath: vault + "/picture.md"))
        let r = CLI.run(["ls", "--paths"], in: vault)
        #expect(r.status == 0)
        #expect(r.stdout.contains("bad-yaml.md") && r.stdout.contains("latin1.md") && r.stdout.contains("picture.md"))
        #expect(r.stderr.contains("sheaf: warning: bad-yaml.md: invalid YAML front-matter at line"))
        #expect(r.stderr.contains("sheaf: warning: latin1.md: not valid UTF-8"))
        #expect(r.stderr.contains("sheaf: warning: picture.md: binary content"))
        #expect(CLI.run(["ls", "-q"], in: vault).stderr.isEmpty)
        // Each warning is shown once per change of its file; -v shows them all.
        #expect(CLI.run(["ls"], in: vault).stderr.isEmpty)
        #expect(CLI.run(["ls", "-v"], in: vault).stderr.contains("bad-yaml.md"))
        CLI.write("---\ntags: [oops again\n---\nstill text\n", to: vault + "/bad-yaml.md")
        let again = CLI.run(["ls"], in: vault)
        #expect(again.stderr.contains("bad-yaml.md") && !again.stderr.contains("latin1.md"))
        let tag = CLI.run(["tags", "add", "bad-yaml", "x"], in: vault)
        #expect(tag.status == 2)
        #expect(tag.stderr.contains("will not change this note: bad-yaml.md"))
        #expect(CLI.read(vault + "/bad-yaml.md") == "---\ntags: [oops again\n---\nstill text\n")
    }

    @Test func symlinksLeavingTheVaultAreNotFollowed() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("secret\n", to: temp.path + "/outside/secret.md")
        symlink(temp.path + "/outside", vault + "/escape")
        symlink(temp.path + "/outside/secret.md", vault + "/secret-link.md")
        let r = CLI.run(["ls", "--paths"], in: vault)
        #expect(r.status == 0)
        #expect(!r.stdout.contains("secret"))
        #expect(r.stderr.contains("secret-link.md: symlink leads outside the vault"))
    }

    @Test func ambiguousTitleListsCandidates() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("---\ntitle: Twin\n---\n", to: vault + "/A/twin.md")
        CLI.write("---\ntitle: Twin\n---\n", to: vault + "/B/twin.md")
        let r = CLI.run(["show", "Twin"], in: vault)
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("sheaf: more than one note matches: Twin"))
        #expect(r.stderr.contains("A/twin.md") && r.stderr.contains("B/twin.md"))
        #expect(CLI.run(["show", "A/twin"], in: vault).status == 0)
        #expect(CLI.run(["show", "twin"], in: vault + "/B").status == 0)
    }

    @Test func showJSONHasFieldsAndResolvedLinks() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("---\nid: 0f0f0f0f-aaaa\ntitle: Linker\nstatus: draft\n---\nSee [[Target]] and [gone](missing.md).\n", to: vault + "/Linker.md")
        CLI.write("# Target\n", to: vault + "/Deep/Target.md")
        let r = CLI.run(["show", "0f0f0f", "--json"], in: vault)
        #expect(r.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect(json["title"] as? String == "Linker")
        #expect((json["frontMatter"] as! [String: Any])["status"] as? String == "draft")
        let links = json["links"] as! [[String: Any]]
        #expect(links.first?["resolved"] as? String == "Deep/Target.md")
        #expect(links.last?["resolved"] == nil || links.last?["resolved"] is NSNull)
    }

    @Test func brokenPipeExitsZero() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        for i in 0..<300 { CLI.write("# Note \(i)\nbody\n", to: vault + "/many/n\(i).md") }
        let r = CLI.sh("\"$SHEAF\" ls | head -1 >/dev/null; echo \"${PIPESTATUS:-}\"", in: vault)
        let bash = runProcess("/bin/bash", ["-c", "\"$SHEAF\" ls | head -1 >/dev/null; echo ${PIPESTATUS[0]}"], in: vault, environment: ["SHEAF": CLI.binary])
        #expect(r.status == 0)
        #expect(bash.stdout == "0\n")
    }

    @Test func decomposedFileNamesAreFoundByComposedNamesAndNeverDoubled() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let nfd = "Cafe\u{301} menu"  // as macOS writes names
        CLI.write("# Menu\nbica\n", to: vault + "/" + nfd + ".md")
        #expect(CLI.run(["show", "Caf\u{E9} menu"], in: vault).stdout == "# Menu\nbica\n")
        let made = CLI.run(["new", "Caf\u{E9} menu"], in: vault)
        #expect(made.stdout == "Caf\u{E9} menu 2.md\n")
    }
}

@Suite struct FrontMatterEditRefusalTests {
    /// `tags add` after a top-level flow mapping, or after a block scalar that keeps trailing
    /// blank lines, wrote YAML that no longer parsed or whose values had changed. The first
    /// cannot be edited line by line: refused, exit 2, the note untouched. The second is
    /// written where the kept lines stay the scalar's.
    @Test func tagsAddRefusesWhatItCannotWriteAndKeepsBlockScalarsWhole() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let flow = "---\n{a: 1, b: 2}\n---\nbody\n", kept = "---\nkeep: |+\n  text\n\n\n---\nbody\n"
        CLI.write(flow, to: vault + "/Flow.md")
        CLI.write(kept, to: vault + "/Kept.md")
        let refused = CLI.run(["tags", "add", "Flow.md", "x"], in: vault)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("will not change this note") && refused.stderr.contains("the note was left as it is"), "\(refused.stderr)")
        #expect(CLI.read(vault + "/Flow.md") == flow)
        let added = CLI.run(["tags", "add", "Kept.md", "x"], in: vault)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(CLI.read(vault + "/Kept.md") == "---\nkeep: |+\n  text\n\n\ntags:\n  - x\n---\nbody\n")
    }
}
