// Habits of zk, git and Obsidian users that broke (issue 14), each tried as a user would.
import Foundation
import TestSupport
import Testing
import Yams

@Suite struct EverydayTests {
    /// Issue 14, item 8: `tags add NOTE 0x10 .inf 2024-01-01` wrote them plain, so YAML readers
    /// (Obsidian's included) read 16, infinity and a date back.
    @Test func tagsAddQuotesTagsThatYAMLWouldReadAsSomethingElse() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        #expect(CLI.run(["new", "Tagged"], in: vault).status == 0)
        let r = CLI.run(["tags", "add", "Tagged", "0x10", ".inf", "2024-01-01", "travel"], in: vault)
        #expect(r.status == 0, "\(r.stderr)")
        let text = CLI.read(vault + "/Tagged.md")
        let yaml = text.components(separatedBy: "---\n")[1]
        let tags = try #require(try Yams.load(yaml: yaml) as? [String: Any])["tags"] as? [Any]
        #expect(tags?.count == 4)
        #expect(tags?.allSatisfy { $0 is String } == true, "\(text)")
        let shown = CLI.run(["show", "Tagged", "--json"], in: vault).stdout
        #expect(shown.contains("\"0x10\"") && shown.contains("\"2024-01-01\""))
    }

    /// Issue 14, item 8: a tag with a space is not one tag in Obsidian; it is refused, not written.
    @Test func aTagWithASpaceIsRefusedAndTheNoteIsLeftAlone() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        #expect(CLI.run(["new", "Plain"], in: vault).status == 0)
        let before = CLI.read(vault + "/Plain.md")
        let r = CLI.run(["tags", "add", "Plain", "two words"], in: vault)
        #expect(r.status == 2)
        #expect(r.stderr.contains("not a tag"))
        #expect(CLI.read(vault + "/Plain.md") == before)
        #expect(CLI.run(["new", "Other", "--tag", "1984"], in: vault).status == 2)
        #expect(!FileManager.default.fileExists(atPath: vault + "/Other.md"))
    }

    /// Issue 14, item 7: `device = "laptop"  # my machine` gave a device named with the comment,
    /// which then went into commit messages.
    @Test func aCommentInConfigTomlStaysOutOfTheDeviceName() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("# this machine\ndevice = \"laptop\"  # my machine\n", to: vault + "/.sheaf/config.toml")
        #expect(CLI.run(["config", "get", "device"], in: vault).stdout == "laptop\n")
        #expect(CLI.run(["config", "set", "remote", "backup"], in: vault).status == 0)
        #expect(CLI.read(vault + "/.sheaf/config.toml") == "# this machine\ndevice = \"laptop\"  # my machine\nremote = \"backup\"\n")
        CLI.write("device = laptop\n", to: vault + "/.sheaf/config.toml")
        let broken = CLI.run(["config", "get", "device"], in: vault)
        #expect(broken.stderr.contains("cannot read .sheaf/config.toml"))
        #expect(!broken.stdout.contains("laptop"))
    }

    /// Issue 14, item 9: a time without an offset was read as UTC; Obsidian and zk read it as the
    /// user's local time. In Tokyo (UTC+9) a note created at 2026-01-10 07:00 local time is on
    /// 2026-01-09 in UTC, and `after:2026-01-10` must still find it.
    @Test func datesWithoutAnOffsetAreReadInTheUsersTimeZone() {
        let temp = TempDir()
        let vault = temp.path + "/vault"
        try! FileManager.default.createDirectory(atPath: vault, withIntermediateDirectories: true)
        CLI.write("---\ncreated: 2026-01-10 07:00\n---\n# Early\nbreakfast notes\n", to: vault + "/Early.md")
        CLI.write("---\ncreated: 2026-01-09 23:00\n---\n# Late\nbreakfast notes\n", to: vault + "/Late.md")
        #expect(CLI.run(["init"], in: vault).status == 0)
        let tokyo = ["TZ": "Asia/Tokyo"]
        let r = CLI.run(["search", "breakfast", "after:2026-01-10", "--paths"], in: vault, environment: tokyo)
        #expect(r.stdout == "Early.md\n", "\(r.stderr)")
        let json = CLI.run(["show", "Early", "--json"], in: vault, environment: tokyo).stdout
        #expect(json.contains("2026-01-09T22:00:00Z"), "\(json)")
    }

    /// Issue 14, item 1: `sheaf --vault DIR ls` was refused ("Unknown option '--vault'").
    @Test func globalOptionsWorkBeforeAndAfterTheSubcommand() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let after = CLI.run(["ls", "--paths", "--vault", vault], in: temp.path)
        #expect(after.status == 0)
        for args in [["--vault", vault, "ls", "--paths"], ["--vault=" + vault, "-q", "ls", "--paths"],
                     ["-q", "--vault", vault, "ls", "--paths"]] {
            let r = CLI.run(args, in: temp.path)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            #expect(r.stdout == after.stdout)
        }
        #expect(CLI.run(["--vault", vault, "remote", "list"], in: temp.path).status == 0)
    }

    /// Issue 14, item 2: a `while read` loop fed `sheaf new` its own input: one note whose body
    /// was the rest of the list. Standard input is read only with `--body -`.
    @Test func newInAWhileReadLoopMakesOneNotePerLine() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let script = "printf 'alpha\\nbeta\\ngamma\\n' | while read t; do \"$SHEAF\" new \"$t\"; done"
        let r = runProcess("/bin/sh", ["-c", script], in: vault, environment: ["SHEAF": CLI.binary])
        #expect(r.status == 0, "\(r.stderr)")
        for name in ["alpha", "beta", "gamma"] {
            #expect(FileManager.default.fileExists(atPath: vault + "/\(name).md"), "\(name).md is missing")
        }
        #expect(!CLI.read(vault + "/alpha.md").contains("beta"))
        let piped = CLI.run(["new", "Piped", "--body", "-"], in: vault, stdin: "- milk\n")
        #expect(piped.status == 0)
        #expect(CLI.read(vault + "/Piped.md").hasSuffix("\n- milk\n"))
    }

    /// Issue 14, item 3: `sheaf search --pahts canvas` searched for "--pahts" and exited 0.
    @Test func aMistypedOptionOrCommandIsAnErrorWithASuggestion() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let option = CLI.run(["search", "--pahts", "lisbon"], in: vault)
        #expect(option.status == 2)
        #expect(option.stderr.contains("unknown option '--pahts'") && option.stderr.contains("--paths"))
        #expect(option.stdout.isEmpty)
        let command = CLI.run(["serach", "lisbon"], in: vault)
        #expect(command.status == 2)
        #expect(command.stderr.contains("did you mean 'search'"))
        #expect(CLI.run(["ls", "--limt", "2"], in: vault).status == 2)
        // `-word` is still the query's exclusion.
        let excluded = CLI.run(["search", "tram", "-lisbon", "--paths"], in: vault)
        #expect(excluded.status <= 1)
        #expect(!excluded.stdout.contains("Lisbon/"))
    }

    /// Issue 14, item 4: no short flags; `-n` limits as in git log, `-t` names a tag.
    @Test func shortFlagsForLimitAndTag() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        #expect(CLI.run(["ls", "-n", "2", "--paths"], in: vault).stdout.split(separator: "\n").count == 2)
        #expect(CLI.run(["search", "lisbon", "-n", "1", "--paths"], in: vault).stdout.split(separator: "\n").count == 1)
        #expect(CLI.run(["ls", "-t", "travel", "--paths"], in: vault).stdout == CLI.run(["ls", "--tag", "travel", "--paths"], in: vault).stdout)
        #expect(CLI.run(["new", "Short", "-t", "home"], in: vault).status == 0)
        #expect(CLI.read(vault + "/Short.md").contains("- home"))
        #expect(CLI.run(["commit"], in: vault).status == 0)
        #expect(CLI.run(["log", "-n", "1"], in: vault).status == 0)
        // The joined form the README gives for all three (`ls -n1` was "Unknown option").
        #expect(CLI.run(["ls", "-n2", "--paths"], in: vault).stdout == CLI.run(["ls", "-n", "2", "--paths"], in: vault).stdout)
        #expect(CLI.run(["search", "lisbon", "-n1", "--paths"], in: vault).stdout.split(separator: "\n").count == 1)
        let log = CLI.run(["log", "-n1"], in: vault)
        #expect(log.status == 0, "\(log.stderr)")
        #expect(log.stdout == CLI.run(["log", "-n", "1"], in: vault).stdout)
    }

    /// Issue 14, item 6: `-q` still printed the scan summary of `index`.
    @Test func quietIndexPrintsNothing() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let r = CLI.run(["index", "-q", "--rebuild"], in: vault)
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty && r.stderr.isEmpty, "\(r.stdout)\(r.stderr)")
        #expect(CLI.run(["index"], in: vault).stdout.hasPrefix("scanned "))
    }

    /// Issue 14, item 5: `sheaf ls --paths | xargs` broke on names with spaces; `-0` ends each
    /// path with a NUL byte on every command that lists paths.
    @Test func nullTerminatedPathsSurviveXargsWithSpacesInNames() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let lines = CLI.run(["ls", "--paths"], in: vault).stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains(" ") })
        let nul = CLI.run(["ls", "-0"], in: vault).stdout
        #expect(nul.split(separator: "\0").map(String.init) == lines)
        let viaXargs = runProcess("/bin/sh", ["-c", "\"$SHEAF\" ls --null | xargs -0 -n1 printf '%s\\n'"], in: vault,
                                  environment: ["SHEAF": CLI.binary])
        #expect(viaXargs.stdout.split(separator: "\n").map(String.init) == lines)
        #expect(CLI.run(["search", "lisbon", "-0"], in: vault).stdout.hasSuffix("\0"))
        #expect(CLI.run(["backlinks", "Tram 28", "-0"], in: vault).stdout.hasSuffix("\0"))
        #expect(CLI.run(["attachments", "-0"], in: vault).stdout.hasSuffix("\0"))
    }

    /// Issue 14, item 5: long output goes through `$PAGER` on a terminal (not with --no-pager or
    /// when piped), and colour follows --color, NO_COLOR and TERM=dumb.
    @Test func longListingsGoThroughThePagerOnATerminalOnly() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let paged = temp.path + "/paged"
        func onTerminal(_ args: String, _ env: [String: String] = [:]) -> RunResult {
            runProcess("/usr/bin/script", ["-qec", "\"$SHEAF\" " + args, "/dev/null"], in: vault,
                       environment: ["SHEAF": CLI.binary, "PAGER": "cat > '\(paged)'", "TERM": "xterm"].merging(env) { $1 })
        }
        _ = onTerminal("ls")
        let text = CLI.read(paged)
        #expect(text.contains("Trips/Lisbon/Tram 28.md"))
        #expect(text.contains("\u{1B}[1m"), "colour is kept through the pager")
        try FileManager.default.removeItem(atPath: paged)
        let direct = onTerminal("ls --no-pager")
        #expect(!FileManager.default.fileExists(atPath: paged))
        #expect(direct.stdout.contains("Tram 28"))
        _ = onTerminal("ls --color never")
        #expect(!CLI.read(paged).contains("\u{1B}["))
        try FileManager.default.removeItem(atPath: paged)
        _ = onTerminal("ls", ["TERM": "dumb"])
        #expect(!CLI.read(paged).contains("\u{1B}["))
        // Piped: no pager, no colour, unless asked for.
        #expect(!CLI.run(["ls"], in: vault).stdout.contains("\u{1B}["))
        #expect(CLI.run(["ls", "--color", "always"], in: vault).stdout.contains("\u{1B}[1m"))
    }

    /// Issue 14, item 11: `sheaf daily` opens or creates the day's note where Obsidian's Daily
    /// notes plugin would, from `.obsidian/daily-notes.json` and its template.
    @Test func dailyMakesTheNoteObsidianWouldAndFindsItAgain() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let plain = CLI.run(["daily", "2026-03-14"], in: vault)
        #expect(plain.stdout == "2026-03-14.md\n", "\(plain.stderr)")
        try! FileManager.default.createDirectory(atPath: vault + "/.obsidian", withIntermediateDirectories: true)
        try! FileManager.default.createDirectory(atPath: vault + "/Templates", withIntermediateDirectories: true)
        CLI.write(#"{"folder": "Journal/Daily/", "format": "YYYY/MM/YYYY-MM-DD dddd", "template": "Templates/Day"}"#,
                  to: vault + "/.obsidian/daily-notes.json")
        CLI.write("---\ntags: [daily]\n---\n# {{title}}\n\n{{date:MMMM Do}}\n", to: vault + "/Templates/Day.md")
        let made = CLI.run(["daily", "2026-03-01"], in: vault)
        let path = "Journal/Daily/2026/03/2026-03-01 Sunday.md"
        #expect(made.stdout == path + "\n", "\(made.stderr)")
        let text = CLI.read(vault + "/" + path)
        #expect(text.hasPrefix("---\ntags: [daily]\nid: "))
        #expect(text.hasSuffix("---\n# 2026-03-01 Sunday\n\nMarch 1st\n"))
        // Again: the same note, untouched.
        #expect(CLI.run(["daily", "2026-03-01"], in: vault).stdout == path + "\n")
        #expect(CLI.read(vault + "/" + path) == text)
        // A config.toml setting wins over Obsidian's.
        #expect(CLI.run(["config", "set", "daily-folder", "Days"], in: vault).status == 0)
        #expect(CLI.run(["daily", "2026-03-02"], in: vault).stdout == "Days/2026/03/2026-03-02 Monday.md\n")
        #expect(CLI.run(["daily", "-1"], in: vault).status == 0)
        #expect(CLI.run(["daily", "someday"], in: vault).status == 2)
    }

    /// Synced daily-note settings are untrusted: a folder that climbs out of the vault, or one
    /// reached through a symlinked folder, is refused, never created or handed to the editor.
    @Test func dailySettingsFromARemoteCannotLeadOutOfTheVault() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let outside = temp.path + "/outside"
        try FileManager.default.createDirectory(atPath: outside + "/Days", withIntermediateDirectories: true)
        CLI.write("private\n", to: outside + "/Days/2026-03-01.md")
        try FileManager.default.createSymbolicLink(atPath: vault + "/Linked", withDestinationPath: outside)
        try FileManager.default.createDirectory(atPath: vault + "/.obsidian", withIntermediateDirectories: true)
        for folder in ["../outside/Days", "Linked/Days", "/../../outside"] {
            CLI.write(#"{"folder": "\#(folder)"}"#, to: vault + "/.obsidian/daily-notes.json")
            let r = CLI.run(["daily", "2026-03-01", "--no-edit"], in: vault)
            #expect(r.status == 2, "\(folder): \(r.stdout)")
            #expect(!r.stdout.contains("2026-03-01.md"), "\(folder)")
        }
        CLI.write(#"{"format": "[../../x/]YYYY"}"#, to: vault + "/.obsidian/daily-notes.json")
        #expect(CLI.run(["daily", "2026-03-01", "--no-edit"], in: vault).status == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside + "/Days") == ["2026-03-01.md"])
        #expect(CLI.read(outside + "/Days/2026-03-01.md") == "private\n")
    }

    /// Issue 14, item 11: `new --template NAME` fills Obsidian's Templates variables and keeps the
    /// template's front-matter.
    @Test func newFromATemplateFillsTitleDateAndTime() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        try! FileManager.default.createDirectory(atPath: vault + "/.obsidian", withIntermediateDirectories: true)
        try! FileManager.default.createDirectory(atPath: vault + "/Meta/Templates", withIntermediateDirectories: true)
        CLI.write(#"{"folder": "Meta/Templates", "dateFormat": "DD.MM.YYYY"}"#, to: vault + "/.obsidian/templates.json")
        CLI.write("---\ntype: meeting\ncreated: {{date:YYYY-MM-DD}}\n---\n# {{title}} on {{date}}\n", to: vault + "/Meta/Templates/Meeting.md")
        let r = CLI.run(["new", "Standup", "--template", "Meeting", "--body=- agenda"], in: vault, environment: ["TZ": "UTC"])
        #expect(r.status == 0, "\(r.stderr)")
        let text = CLI.read(vault + "/Standup.md")
        let today = MomentFormatProbe.today("DD.MM.YYYY")
        #expect(text.contains("type: meeting\ncreated: 20"))
        #expect(!text.contains("{{"))
        #expect(text.hasSuffix("# Standup on \(today)\n- agenda\n"), "\(text)")
        #expect(CLI.run(["new", "Other", "--template", "Missing"], in: vault).status == 2)
        // A template path from synced settings cannot leave the vault.
        CLI.write(#"{"folder": "../../etc"}"#, to: vault + "/.obsidian/templates.json")
        #expect(CLI.run(["new", "Leak", "--template", "passwd"], in: vault).status == 2)
    }
}

/// Issue 14, item 13: a query whose words never all meet in one note (`change font size`)
/// found nothing; it now finds the notes holding most of them, and says so.
@Suite struct ForgivingSearchTests {
    @Test func aQueryWhoseWordsNeverAllMeetFindsNotesWithMostOfThem() {
        let temp = TempDir()
        let vault = temp.path + "/vault"
        try! FileManager.default.createDirectory(atPath: vault, withIntermediateDirectories: true)
        CLI.write("# Fonts\n\nHow to change the font size in the editor.\n", to: vault + "/Fonts.md")
        CLI.write("# Sizes\n\nShoe size chart.\n", to: vault + "/Sizes.md")
        CLI.write("# Other\n\nNothing relevant.\n", to: vault + "/Other.md")
        #expect(CLI.run(["init"], in: vault).status == 0)
        let r = CLI.run(["search", "change", "font", "size", "colour", "--paths"], in: vault)
        #expect(r.status == 0)
        #expect(r.stdout.split(separator: "\n").first == "Fonts.md", "\(r.stdout)")
        #expect(r.stdout.contains("Sizes.md") && !r.stdout.contains("Other.md"))
        #expect(r.stderr.contains("no note holds all of the words"))
        let json = CLI.run(["search", "change", "font", "size", "colour", "--json"], in: vault).stdout
        #expect(json.contains("\"partial\" : true"))
        // All words in one note: no relaxing.
        let exact = CLI.run(["search", "font", "size", "--json"], in: vault).stdout
        #expect(exact.contains("\"partial\" : false") && !exact.contains("Sizes.md"))
        // A single word that matches nothing still finds nothing.
        #expect(CLI.run(["search", "zebra"], in: vault).status == 1)
    }
}

/// Issue 14, item 12: `-i` picks a note with fzf (run here with `--filter`, fzf's own
/// non-interactive mode), and says what to do when fzf is missing.
@Suite struct PickerTests {
    @Test func showDashIPicksANoteWithFzfOrSaysItIsMissing() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/fzf") else { return }
        let picked = CLI.run(["show", "-i"], in: vault, environment: ["FZF_DEFAULT_OPTS": "--filter='Tram 28'"])
        #expect(picked.status == 0, "\(picked.stderr)")
        #expect(picked.stdout.contains("Tram 28"))
        let none = CLI.run(["show", "-i"], in: vault, environment: ["FZF_DEFAULT_OPTS": "--filter=zzzzqqq"])
        #expect(none.status == 1)
        let missing = CLI.run(["edit", "-i"], in: vault, environment: ["PATH": "/nonexistent"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("-i needs fzf"))
        #expect(CLI.run(["show"], in: vault).status == 2)
        #expect(CLI.run(["show", "Tram 28", "-i"], in: vault).status == 2)
    }
}

/// Today's date in a format, as the test process sees it (UTC in the harness).
enum MomentFormatProbe {
    static func today(_ format: String) -> String {
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = format.replacingOccurrences(of: "DD", with: "dd").replacingOccurrences(of: "YYYY", with: "yyyy")
        return f.string(from: Date())
    }
}
