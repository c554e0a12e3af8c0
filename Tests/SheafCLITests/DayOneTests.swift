// Issue 23: what a zk, Obsidian or git user meets on the first day, each test named after what broke.
import Foundation
import Testing
import TestSupport

@Suite struct DayOneTests {
    /// Item 1: with `"folder": "Daily"` in `.obsidian/daily-notes.json`, the second `sheaf daily`
    /// of the day said "a file is already there" (the folder joined with an empty subfolder gave
    /// `Daily//2026-11-27.md`, which the path guard refused, so the note looked missing).
    @Test func dailyOpensTheExistingNoteInAFolderOnItsSecondRun() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("{\"folder\": \"Daily\"}", to: vault + "/.obsidian/daily-notes.json")
        let first = CLI.run(["daily", "--no-edit"], in: vault)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("Daily/"))
        CLI.write(CLI.read(vault + "/" + first.stdout.trimmingCharacters(in: .newlines)) + "\nwritten between runs\n",
                  to: vault + "/" + first.stdout.trimmingCharacters(in: .newlines))
        let second = CLI.run(["daily", "--no-edit"], in: vault)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout == first.stdout)
        #expect(CLI.read(vault + "/" + first.stdout.trimmingCharacters(in: .newlines)).contains("written between runs"))
        // An existing note of another day, named by its date, opens the same way.
        CLI.write("# An old day\n", to: vault + "/Daily/2023-09-12.md")
        let old = CLI.run(["daily", "2023-09-12", "--no-edit"], in: vault)
        #expect(old.status == 0, "\(old.stderr)")
        #expect(old.stdout == "Daily/2023-09-12.md\n")
        #expect(CLI.read(vault + "/Daily/2023-09-12.md") == "# An old day\n")
    }

    /// Regression: a daily note that is a symlink leading out of the vault (one a hostile remote
    /// could plant before symlink chains were refused) was handed to the editor, whose save
    /// wrote to the file outside. It is refused, and the file outside is left alone.
    @Test func dailyNeverOpensASymlinkThatLeadsOutOfTheVault() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let outside = temp.path + "/outside-secret.txt"
        CLI.write("secret\n", to: outside)
        try FileManager.default.createSymbolicLink(atPath: vault + "/2023-09-12.md", withDestinationPath: outside)
        let opened = CLI.run(["daily", "2023-09-12", "--no-edit"], in: vault)
        #expect(opened.status != 0 && opened.stderr.contains("not a file of the vault"), "\(opened.stdout) \(opened.stderr)")
        #expect(CLI.read(outside) == "secret\n")
        try FileManager.default.createSymbolicLink(atPath: vault + "/2023-09-13.md", withDestinationPath: "Inbox")
        #expect(CLI.run(["daily", "2023-09-13", "--no-edit"], in: vault).status != 0, "a link to a folder is no note either")
    }
}

/// Item 3: a note with a conflict file was invisible in `sheaf status` (text and `--json`), and
/// the device that pushed first only learned of the conflict by running `sheaf conflicts`.
@Suite struct ConflictsInStatusTests {
    @Test func statusNamesEachNoteWithAConflictFileOnBothDevices() throws {
        let replicas = Replicas(2, samples: false)
        replicas.write(0, "Start.md", "# Start\n\nfirst line from r0\n")
        replicas.write(1, "Start.md", "# Start\n\nfirst line from r1\n")
        #expect(replicas.sync(0).status == 0)
        let second = replicas.sync(1)
        #expect(second.status == 1, "\(second.stderr)")
        let conflictFile = try #require(replicas.conflictFiles(1).first)

        // The device that pushed first learns of it on its next sync, by name and by exit code.
        let first = replicas.sync(0)
        #expect(first.status == 1, "\(first.stdout)\(first.stderr)")
        #expect(first.stderr.contains("conflict: Start.md has a conflict file from another device: \(conflictFile)"))
        let json = CLI.run(["sync", "--json"], in: replicas[0])
        #expect(json.status == 0, "nothing new arrived: \(json.stderr)")

        for device in 0..<2 {
            let status = CLI.run(["status"], in: replicas[device])
            #expect(status.status == 0)
            #expect(status.stdout.contains("notes with conflicts"), "\(status.stdout)")
            #expect(status.stdout.contains("conflict Start.md  (\(conflictFile))"), "\(status.stdout)")
            let parsed = try JSONSerialization.jsonObject(with: CLI.run(["status", "--json"], in: replicas[device]).output) as? [String: Any]
            let conflicts = parsed?["conflicts"] as? [[String: String]]
            #expect(conflicts == [["path": conflictFile, "original": "Start.md"]])
        }
        // Settled, it leaves status.
        #expect(CLI.run(["resolve", "Start.md", "--keep", "local"], in: replicas[0]).status == 0)
        #expect(!CLI.run(["status"], in: replicas[0]).stdout.contains("notes with conflicts"))
    }
}

extension DayOneTests {
    /// Item 6: `sheaf show Canvas.md` said "no note matches" for a note in a folder, though the
    /// README says a file name names a note (`.md` optional).
    @Test func showNamesANoteByItsFileNameWithItsExtension() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        for name in ["Backup strategy.md", "backup strategy.md", "Backup strategy"] {
            let shown = CLI.run(["show", name], in: vault)
            #expect(shown.status == 0, "\(name): \(shown.stderr)")
            #expect(shown.stdout.contains("Backup"))
        }
    }
}

extension DayOneTests {
    /// Item 10: `sheaf clone` of a path that does not exist said "offline ... run `sheaf sync`
    /// when online" (exit 75); `remote add origin ''` stored the vault as its own remote.
    @Test func cloneOfAMissingPathIsAnErrorAndAVaultCannotBeItsOwnRemote() {
        let temp = TempDir()
        let cloned = CLI.run(["clone", temp.path + "/no-such-remote.git", temp.path + "/copy"], in: temp.path)
        #expect(cloned.status == 2, "\(cloned.stderr)")
        #expect(cloned.stderr.contains("the remote's folder does not exist"))
        #expect(!cloned.stderr.contains("online"))
        #expect(!FileManager.default.fileExists(atPath: temp.path + "/copy"))

        let vault = CLI.sampleVault(temp)
        let empty = CLI.run(["remote", "add", "origin", ""], in: vault)
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("the remote's URL is empty"))
        for itself in [".", "./", vault, "file://" + vault] {
            let own = CLI.run(["remote", "add", "origin", itself], in: vault)
            #expect(own.status == 2, "\(itself)")
            #expect(own.stderr.contains("a vault cannot be its own remote"), "\(itself): \(own.stderr)")
        }
        #expect(CLI.run(["remote", "list"], in: vault).stdout.isEmpty)
    }

    /// Item 11: `search -- --help` failed with "query only excludes", and the message quoted a
    /// `--` the user never typed.
    @Test func searchAfterDoubleDashFindsWordsThatStartWithDashes() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("# Flags\n\nRun it with --frobnicate to see.\n", to: vault + "/Flags.md")
        let found = CLI.run(["search", "--paths", "--", "--frobnicate"], in: vault)
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout == "Flags.md\n")
        let onlyExcludes = CLI.run(["search", "-draft"], in: vault)
        #expect(onlyExcludes.status == 2)
        #expect(!onlyExcludes.stderr.contains("`--`"), "\(onlyExcludes.stderr)")
    }

    /// Item 12: `commit -q` printed "nothing to commit"; `config get nonsense` exited 1 without a
    /// word; settings in a `[sync]` table and unknown keys were ignored silently; `--vault` of a
    /// missing folder suggested `sheaf init`; a template with broken YAML was refused without its
    /// path; status said "committed: committed:".
    @Test func quietCommitConfigMistakesMissingVaultAndTemplateErrorsSayWhatIsWrong() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        #expect(CLI.run(["commit"], in: vault).status == 0)
        let quiet = CLI.run(["commit", "-q"], in: vault)
        #expect(quiet.status == 0)
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet.stdout)")

        let unknown = CLI.run(["config", "get", "nonsense"], in: vault)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown setting 'nonsense'"))
        #expect(CLI.run(["config", "get", "daily-folder"], in: vault).status == 1)  // known, unset: as git

        CLI.write("device = \"laptop\"\ncolour = \"blue\"\n[sync]\nremote = \"backup\"\n", to: vault + "/.sheaf/config.toml")
        let warned = CLI.run(["ls", "-n1"], in: vault)
        #expect(warned.status == 0)
        #expect(warned.stderr.contains("unknown setting `colour`"), "\(warned.stderr)")
        #expect(warned.stderr.contains("[sync] is a table"), "\(warned.stderr)")
        #expect(CLI.run(["config", "get", "device"], in: vault).stdout == "laptop\n")

        let missing = CLI.run(["--vault", temp.path + "/nowhere", "ls"], in: temp.path)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no such folder"), "\(missing.stderr)")
        #expect(!missing.stderr.contains("run `sheaf init"))

        CLI.write("---\ntags: [a\n---\n# {{title}}\n", to: vault + "/Templates/Broken.md")
        let template = CLI.run(["new", "From broken", "--template", "Broken"], in: vault)
        #expect(template.status == 2)
        #expect(template.stderr.contains("cannot use this template: Templates/Broken.md"), "\(template.stderr)")
    }

    /// Item 13: Ctrl-C during `index --rebuild` left `index.sqlite.building` (and its WAL) that
    /// nothing removed.
    @Test func aStoppedRebuildLeavesNoBuildingFileBehind() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        #expect(CLI.run(["index"], in: vault).status == 0)
        // What a rebuild killed half way leaves.
        for suffix in ["", "-wal", "-shm"] {
            CLI.write("half a build", to: vault + "/.sheaf/index.sqlite.building" + suffix)
        }
        CLI.write("# New\n", to: vault + "/New since.md")
        #expect(CLI.run(["ls", "-n1"], in: vault).status == 0)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: vault + "/.sheaf")) ?? []
        #expect(!left.contains { $0.hasPrefix("index.sqlite.building") }, "\(left)")
    }

    /// Item 16: under a POSIX TZ string (`UTC-5`, which the C library and every other program
    /// read as five hours east of UTC), Sheaf read times without an offset as UTC-5.
    @Test func posixTZStringsAreReadAsTheCLibraryReadsThem() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let made = CLI.run(["new", "Zoned"], in: vault, environment: ["TZ": "UTC-5"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(CLI.read(vault + "/Zoned.md").contains("+05:00"), "\(CLI.read(vault + "/Zoned.md"))")
        // A date without an offset is midnight there: 19:00 UTC the day before.
        CLI.write("---\ncreated: 2026-03-14\n---\n# Early\n", to: vault + "/Early.md")
        let zoned = CLI.run(["ls", "--json"], in: vault, environment: ["TZ": "UTC-5"])
        #expect(zoned.stdout.contains("2026-03-13T19:00:00Z"), "\(zoned.stdout.prefix(400))")
    }

    /// Item 17: `watch --json` times were whole seconds, and `show --json` left out `fragment`
    /// and `resolved` where docs/json.md shows null.
    @Test func watchTimesHaveMillisecondsAndAbsentLinkFieldsAreNull() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("# Links\n\n[[Nowhere at all]]\n", to: vault + "/Links.md")
        let shown = try JSONSerialization.jsonObject(with: CLI.run(["show", "Links", "--json"], in: vault).output) as? [String: Any]
        let link = try #require((shown?["links"] as? [[String: Any]])?.first)
        #expect(link["fragment"] is NSNull)
        #expect(link["resolved"] is NSNull)

        let watcher = try WatcherProcess(vault: vault, temp: temp)
        #expect(watcher.waitUntilReady())
        _ = watcher.stop()
        let time = try #require(watcher.events.first?["time"] as? String)
        #expect(time.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression) != nil, "\(time)")
    }
}

extension DayOneTests {
    /// Item 5: doctor matched heading links more strictly than Obsidian (which ignores case,
    /// punctuation and blanks: `[[Functions#hasTag]]` opens `` `hasTag()` ``), checked links
    /// inside `%% comments %%` that Obsidian shows nowhere, had no filter by kind or folder, and
    /// said "links to none" of a note whose broken link it reported. Item 9 (snippets): a snippet
    /// began with a `%%` comment or raw HTML.
    @Test func doctorMatchesHeadingsAsObsidianSkipsCommentsAndFilters() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("# Functions\n\n## `hasTag()`\n\ntext\n\n## What is the Obsidian Hub?\n\nmore\n", to: vault + "/Hub/Functions.md")
        CLI.write("""
            %% editor's note: [[Functions#No such heading]] %%
            <button class="cta">Click</button> Use [[Functions#hasTag]] and ![[Functions#What is the Obsidian Hub]].

            %%
            [[Nowhere at all]]

            [[Functions#Still not there]]
            %%
            Real: [[Functions#Missing heading]]
            """, to: vault + "/Hub/Linker.md")
        CLI.write("# Lonely\n\nSee [[Gone for good]].\n", to: vault + "/Lonely.md")
        let all = CLI.run(["doctor", "--json"], in: vault)
        let findings = try #require((try JSONSerialization.jsonObject(with: all.output) as? [String: Any])?["findings"] as? [[String: Any]])
        let linker = findings.filter { $0["path"] as? String == "Hub/Linker.md" }
        #expect(linker.count == 1, "\(linker)")
        #expect((linker.first?["message"] as? String)?.contains("Missing heading") == true)
        let lonely = findings.filter { $0["path"] as? String == "Lonely.md" }.compactMap { $0["kind"] as? String }
        #expect(lonely == ["broken-link"], "\(lonely)")

        let filtered = CLI.run(["doctor", "--kind", "broken-heading", "--folder", "hub"], in: vault)
        #expect(filtered.status == 1)
        #expect(filtered.stdout.contains("Hub/Linker.md:9"), "\(filtered.stdout)")
        #expect(!filtered.stdout.contains("Lonely.md"))
        #expect(filtered.stdout.hasSuffix("1 broken-heading\n"), "\(filtered.stdout)")
        #expect(CLI.run(["doctor", "--kind", "broken-block", "--folder", "Hub"], in: vault).status == 0)
        #expect(CLI.run(["doctor", "--kind", "nonsense"], in: vault).status == 2)

        let listed = CLI.run(["ls", "--json", "--folder", "Hub"], in: vault)
        let notes = try #require((try JSONSerialization.jsonObject(with: listed.output) as? [String: Any])?["notes"] as? [[String: Any]])
        let snippet = try #require(notes.first { $0["path"] as? String == "Hub/Linker.md" }?["snippet"] as? String)
        #expect(snippet.hasPrefix("Click Use "), "\(snippet)")
        #expect(!snippet.contains("editor's note") && !snippet.contains("<") && !snippet.contains("Nowhere"), "\(snippet)")
    }
}

extension DayOneTests {
    /// Item 8: a footer H1 ("This note in GitHub") became the title, titles kept raw link syntax
    /// (`[[dataview|Dataview]]`), and a note whose file name is the word searched ranked below
    /// notes that only mention it.
    @Test func titlesAreWhatAReaderSeesAndFileNamesRankAsTitles() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("Some text first.\n\n# This note in GitHub\n\n[Edit](https://example.com)\n", to: vault + "/Plugins/Canvas plugin.md")
        CLI.write("# Using [[dataview|Dataview]] and [[Tasks]]\n\nbody\n", to: vault + "/Plugins/Queries.md")
        CLI.write("---\ntitle: Projects, Areas, Resources, Archives\n---\nA way to file notes by how actionable they are.\n",
                  to: vault + "/05 - Concepts/PARA.md")
        for i in 1...4 {
            CLI.write("# Weekly review \(i)\n\nMoved two notes with PARA today; PARA folders, PARA again, and PARA.\n",
                      to: vault + "/Reviews/Week \(i).md")
        }
        let listed = CLI.run(["ls", "--json", "--folder", "Plugins"], in: vault)
        let notes = try #require((try JSONSerialization.jsonObject(with: listed.output) as? [String: Any])?["notes"] as? [[String: Any]])
        let titles = Dictionary(uniqueKeysWithValues: notes.map { ($0["path"] as? String ?? "", $0["title"] as? String ?? "") })
        #expect(titles["Plugins/Canvas plugin.md"] == "Canvas plugin")
        #expect(titles["Plugins/Queries.md"] == "Using Dataview and Tasks")
        #expect(CLI.run(["show", "Using Dataview and Tasks", "--json"], in: vault).status == 0)

        let found = CLI.run(["search", "--paths", "PARA"], in: vault)
        #expect(found.stdout.split(separator: "\n").first == "05 - Concepts/PARA.md", "\(found.stdout)")
    }
}

extension DayOneTests {
    /// Item 7: `mv` left a link dangling in a note whose YAML does not parse and still exited 0
    /// (a warning); `append` refused such a note although an append leaves its front-matter as it is.
    @Test func moveThatLeavesALinkDanglingExitsOneAndAppendTakesANoteWithBrokenYAML() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("# Target\n", to: vault + "/Target.md")
        let broken = "---\ntags: [a\n---\nSee [[Target]].\n"
        CLI.write(broken, to: vault + "/Broken.md")
        CLI.write("See [[Target]] too.\n", to: vault + "/Fine.md")
        let moved = CLI.run(["mv", "Target", "Renamed"], in: vault)
        #expect(moved.status == 1, "\(moved.stdout)\(moved.stderr)")
        #expect(moved.stdout.contains("moved Target.md -> Renamed.md"))
        #expect(moved.stderr.contains("Broken.md"), "\(moved.stderr)")
        #expect(CLI.read(vault + "/Broken.md") == broken)
        #expect(CLI.read(vault + "/Fine.md") == "See [[Renamed|Target]] too.\n")

        let appended = CLI.run(["append", "Broken", "a new line"], in: vault)
        #expect(appended.status == 0, "\(appended.stderr)")
        #expect(CLI.read(vault + "/Broken.md") == broken + "a new line\n")
        // Bytes that are not UTF-8 are still never rewritten.
        try! Data([0x23, 0x20, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: vault + "/Latin.md"))
        #expect(CLI.run(["append", "Latin.md", "more"], in: vault).status == 2)
    }
}

extension DayOneTests {
    /// Item 9: `sheaf new Canvas` silently took every `[[Canvas]]` that reached
    /// `Plugins/Canvas.md`; `sheaf backlinks` of an attachment said "no note matches" though
    /// `attachments` knew its linkers.
    @Test func newWarnsOfLinksItTakesAndBacklinksNamesAnAttachmentsLinkers() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("# Canvas\n", to: vault + "/Plugins/Canvas.md")
        CLI.write("Try [[Canvas]] for boards.\n", to: vault + "/Boards.md")
        CLI.write("Same as [[Plugins/Canvas]].\n", to: vault + "/Pinned.md")
        #expect(CLI.run(["backlinks", "Plugins/Canvas"], in: vault).stdout == "Boards.md\nPinned.md\n")
        let made = CLI.run(["new", "Canvas"], in: vault)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout == "Canvas.md\n")
        #expect(made.stderr.contains("Boards.md: its link to Canvas now reaches Canvas.md, not Plugins/Canvas.md"), "\(made.stderr)")
        #expect(!made.stderr.contains("Pinned.md"))

        let linkers = CLI.run(["backlinks", "tram-28.png"], in: vault)
        #expect(linkers.status == 0, "\(linkers.stderr)")
        #expect(linkers.stdout == "Trips/Lisbon/Tram 28.md\n")
        #expect(CLI.run(["backlinks", "Trips/Lisbon/tram-28.png"], in: vault).stdout == "Trips/Lisbon/Tram 28.md\n")
        #expect(CLI.run(["backlinks", "no-such-file.png"], in: vault).status == 2)
    }
}
