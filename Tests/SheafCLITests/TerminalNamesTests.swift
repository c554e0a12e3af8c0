// Names reach the terminal escaped (docs/output.md): a name holding ESC, BEL or a newline, from a
// note's title, a file name or a remote's commit, is shown quoted with C escapes by every text
// output, so no escape sequence reaches the terminal and no newline forges a line of output;
// `-0` and `--json` still give the bytes exactly.
import Foundation
import Testing
import TestSupport

@Suite struct TerminalNamesTests {
    static let escName = "esc\u{1B}]0;pwned\u{07}.md"
    static let forgedName = "forged\nsheaf: all good.md"
    static let title = "Title\u{1B}[2J cleared"

    /// What a terminal must never get: ESC, BEL, CSI (8-bit), a carriage return.
    static func controls(_ r: RunResult) -> Bool {
        (r.stdout + r.stderr).unicodeScalars.contains { [0x1B, 0x07, 0x9B, 0x0D].contains($0.value) }
    }

    /// Lines of the output that a name forged (a name's text after its newline, at a line start).
    static func forged(_ r: RunResult) -> [String] {
        (r.stdout + r.stderr).split(separator: "\n").map(String.init).filter {
            $0.hasPrefix("sheaf: all good") || $0.hasPrefix("sheaf: already up to date.md")
        }
    }

    static func vault(_ temp: TempDir) -> String {
        let vault = temp.path + "/vault"
        CLI.write("---\ntitle: \"Title\\e[2J cleared\"\ntags: [\"tag\\e]0;x\\a\"]\n---\nzebra \u{1B}[5m blink [[Other]]\n", to: vault + "/" + escName)
        CLI.write("# Forged\n\nzebra [[Other]]\n", to: vault + "/" + forgedName)
        CLI.write("# Other\n", to: vault + "/Other.md")
        #expect(CLI.run(["init"], in: vault).status == 0)
        return vault
    }

    /// The bug: `ls`, `search`, `tags`, `status` and the others printed names raw, so a file
    /// name's ESC sequence reached the terminal and its newline forged a line of output.
    @Test func everyCommandShowsNamesWithControlCharactersEscaped() {
        let temp = TempDir()
        let vault = Self.vault(temp)
        let commands: [[String]] = [
            ["ls"], ["ls", "--paths"], ["search", "zebra"], ["search", "--paths", "zebra"], ["tags"], ["status"],
            ["backlinks", "Other"], ["doctor"], ["show", "nothing\u{1B}[2J"], ["commit"], ["log"],
            ["tags", "add", Self.forgedName, "more"], ["mv", Self.forgedName, "moved\u{1B}[2J.md"],
            ["rm", "moved\u{1B}[2J"], ["ls", "--paths"],
        ]
        for arguments in commands {
            let r = CLI.run(arguments, in: vault)
            #expect(!Self.controls(r), "\(arguments): \(r.stdout.debugDescription) \(r.stderr.debugDescription)")
            #expect(Self.forged(r).isEmpty, "\(arguments): \(r.stdout.debugDescription)")
        }
        let paths = CLI.run(["ls", "--paths", "--sort", "path"], in: vault).stdout
        #expect(paths.contains(#""esc\x1b]0;pwned\x07.md""#), "\(paths)")
        let listing = CLI.run(["ls", "--sort", "path"], in: vault).stdout
        #expect(listing.contains(#""Title\x1b[2J cleared""#) && listing.contains(#"zebra \x1b[5m blink"#), "\(listing)")
        let missing = CLI.run(["show", "nothing\u{1B}[2J"], in: vault)
        #expect(missing.status == 2 && missing.stderr.contains(#""nothing\x1b[2J""#), "\(missing.stderr)")
    }

    /// The quoted form is kept for names that need it: one that begins with `"` (so a shown name
    /// beginning with `"` is always quoted), one with an 8-bit CSI (U+009B) or a right-to-left
    /// override (U+202E, which reorders the rest of the line); others are shown as they are.
    @Test func namesThatCouldPassForTheQuotedFormOrHoldC1OrBidiControlsAreQuoted() {
        let temp = TempDir()
        let vault = temp.path + "/vault"
        for name in ["\"quoted\" \\n.md", "csi\u{9B}2J.md", "rtl\u{202E}dm.exe.md", "plain \\ 'name'.md"] {
            CLI.write("# x\n", to: vault + "/" + name)
        }
        #expect(CLI.run(["init"], in: vault).status == 0)
        let paths = CLI.run(["ls", "--paths", "--sort", "path"], in: vault).stdout
        #expect(paths.split(separator: "\n").sorted() == [#""\"quoted\" \\n.md""#, #""csi\u009b2J.md""#, #"plain \ 'name'.md"#,
                                                        #""rtl\u202edm.exe.md""#].sorted(), "\(paths)")
    }

    /// The bug: the notes an ambiguous name matches were listed in the error's cause, so a
    /// candidate's newline forged a line there, and escaping the cause whole would have run the
    /// list into one line; each candidate is a line of its own, its names escaped.
    @Test func anAmbiguousNameListsEachCandidateOnALineOfItsOwnWithNamesEscaped() {
        let temp = TempDir()
        let vault = temp.path + "/vault"
        CLI.write("# Twin\n", to: vault + "/A/twin.md")
        CLI.write("---\ntitle: Twin\n---\n", to: vault + "/" + Self.forgedName)
        #expect(CLI.run(["init"], in: vault).status == 0)
        let r = CLI.run(["show", "Twin"], in: vault)
        #expect(r.status == 2)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains("    A/twin.md  (Twin)") && lines.contains(#"    forged\nsheaf: all good.md  (Twin)"#), "\(r.stderr)")
        #expect(Self.forged(r).isEmpty, "\(r.stderr)")
    }

    /// `-0` and `--json` are for scripts: the names come out byte for byte.
    @Test func nullAndJSONOutputKeepNamesExact() throws {
        let temp = TempDir()
        let vault = Self.vault(temp)
        let null = CLI.run(["ls", "-0", "--sort", "path"], in: vault)
        #expect(null.output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.sorted()
            == ["Other.md", Self.escName, Self.forgedName].sorted())
        let json = try #require(try JSONSerialization.jsonObject(with: CLI.run(["ls", "--json"], in: vault).output) as? [String: Any])
        let notes = json["notes"] as? [[String: Any]] ?? []
        #expect(Set(notes.compactMap { $0["path"] as? String }) == [Self.escName, Self.forgedName, "Other.md"])
        #expect(notes.contains { $0["title"] as? String == Self.title })
    }

    /// The bug: `pull --dry-run` (and the pull) printed the remote's file names raw.
    @Test func pullAndItsDryRunShowRemoteNamesEscaped() {
        let r = Replicas(2, samples: false)
        r.write(0, "remote\u{1B}]0;pwned\u{07}.md", "# Remote\n")
        r.write(0, "news\nsheaf: already up to date.md", "# News\n")
        #expect(r.sync(0).status == 0)
        for arguments in [["pull", "--dry-run"], ["pull"]] {
            let pull = CLI.run(arguments, in: r[1])
            #expect(!Self.controls(pull), "\(arguments): \(pull.stdout.debugDescription) \(pull.stderr.debugDescription)")
            #expect(Self.forged(pull).isEmpty, "\(arguments): \(pull.stdout.debugDescription)")
            #expect((pull.stdout + pull.stderr).contains(#""remote\x1b]0;pwned\x07.md""#), "\(arguments): \(pull.stdout)")
        }
    }
}
