import Foundation
import SheafCore
import Testing
import TestSupport

@Suite struct SearchTests {
    func paths(_ r: RunResult) -> Set<String> { Set(r.stdout.split(separator: "\n").map(String.init)) }

    /// Notes `rg -l -i -w WORD` finds, vault-relative, skipping dot-folders as Sheaf does.
    func ripgrep(_ word: String, in vault: String) -> Set<String> {
        let r = runProcess("/usr/bin/rg", ["-l", "-i", "-w", "-F", "--glob", "*.md", "--", word, "."], in: vault)
        return Set(r.stdout.split(separator: "\n").map { String($0.hasPrefix("./") ? $0.dropFirst(2) : $0) })
    }

    /// An extra hit is fine when it comes from stemming, accent folding or the note's path.
    func explained(_ path: String, _ word: String, in vault: String) -> Bool {
        let fold = { (s: String) in s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }
        let text = fold(CLI.read(vault + "/" + path) + " " + path)
        // Porter strips suffixes like these; the stem must then occur in the note or its path.
        let word = fold(word)
        let suffixes = ["ational", "tional", "ation", "ness", "ment", "ing", "ful", "ous", "ive", "ize", "ly", "ed", "es", "er", "e", "s", "y"]
        let stems = [word] + suffixes.filter { word.hasSuffix($0) && word.count - $0.count >= 3 }.map { String(word.dropLast($0.count)) }
        return stems.contains { text.contains($0) }
    }

    func compare(_ vault: String, words: [String]) {
        for word in words {
            let r = CLI.run(["search", "--paths", "--limit", "100000", "-q", word], in: vault)
            #expect(r.status == 0 || r.status == 1, "\(word): \(r.stderr)")
            let sheaf = paths(r), rg = ripgrep(word, in: vault).filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
            #expect(rg.subtracting(sheaf).isEmpty, "\(word): missed \(rg.subtracting(sheaf).sorted())")
            for extra in sheaf.subtracting(rg) {
                #expect(explained(extra, word, in: vault), "\(word): unexplained hit \(extra)")
            }
        }
    }

    /// Words of the sample notes' bodies: letters only, 4+ characters.
    func sampleWords(_ vault: String, count: Int, seed: UInt64) -> [String] {
        var words = Set<String>()
        for (path, data) in CLI.snapshot(vault) where VaultPath.isNote(path) && !path.hasPrefix(".") {
            let note = Note(path: path, bytes: data)
            for w in note.body.split(whereSeparator: { !$0.isLetter }) where w.count >= 4 && w.allSatisfy(\.isLetter) {
                words.insert(w.lowercased())
            }
        }
        var rng = SeededRandom(state: seed)
        return Array(words.sorted().shuffled(using: &rng).prefix(count))
    }

    @Test func searchFindsEveryNoteRipgrepFindsAlsoAfterShellEdits() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        compare(vault, words: sampleWords(vault, count: 40, seed: 1))
        // Edits with shell tools between searches: append, rename, delete, new file.
        let script = """
        set -e
        echo 'zymurgy fermentation notes' >> 'Recipes/Shakshuka.md'
        mv 'Recipes/Weeknight dal.md' 'Recipes/Dal for weeknights.md'
        rm 'Reading/Books/Anna Karenina.md'
        mkdir -p New && printf '# Fresh\\nquokka and zymurgy\\n' > New/fresh.md
        sed -i 's/Lisbon/Lisboa/g' 'Trips/Lisbon/Budget.md'
        """
        #expect(CLI.sh(script, in: vault).status == 0)
        compare(vault, words: ["zymurgy", "quokka", "lisboa", "karenina"] + sampleWords(vault, count: 20, seed: 2))
    }

    @Test func designExamplesFindTheirNote() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let fixtures: [(String, String)] = [
            ("Lang/cafe.md", "---\ntitle: Coffee\n---\nA café in the old town.\n"),
            ("Lang/running.md", "# Jogging\nI went running on Sunday.\n"),
            ("Lang/merge.md", "# Merging\nNotes use a three-way merge against the ancestor.\n"),
            ("Lang/ru.md", "# Заметка\nУтром КОФЕ и чай.\n"),
            ("Lang/el.md", "# Σημείωση\nΚΑΛΗΜΕΡΑ από την Αθήνα.\n"),
            ("Lang/ja.md", "# メモ\n東京都の天気は晴れでした。\n"),
            ("Lang/ko.md", "# 메모\n오늘은 서울에서 회의가 있었습니다.\n"),
            ("Lang/zh.md", "# 笔记\n我们明天去北京大学。\n"),
            ("Lang/syncing.md", "---\ntags: [proj/sync]\ncreated: 2026-01-05\n---\nSynchronisation design.\n"),
        ]
        for (path, text) in fixtures { CLI.write(text, to: vault + "/" + path) }
        let expectations: [(String, String)] = [
            ("cafe", "Lang/cafe.md"), ("CAFÉ", "Lang/cafe.md"), ("run", "Lang/running.md"),
            ("\"three-way merge\"", "Lang/merge.md"), ("sync*", "Lang/syncing.md"), ("кофе", "Lang/ru.md"),
            ("Утром", "Lang/ru.md"), ("καλημέρα", "Lang/el.md"), ("東京", "Lang/ja.md"), ("京都", "Lang/ja.md"),
            ("天気", "Lang/ja.md"), ("서울", "Lang/ko.md"), ("회의", "Lang/ko.md"), ("北京大学", "Lang/zh.md"),
            ("京大", "Lang/zh.md"), ("tag:proj", "Lang/syncing.md"), ("#proj/sync", "Lang/syncing.md"),
            ("in:Lang title:jogging", "Lang/running.md"), ("after:2026-01-01 before:2026-01-06 in:Lang", "Lang/syncing.md"),
            ("coffee OR jogging in:Lang", "Lang/cafe.md"), ("in:Lang three-way -sunday", "Lang/merge.md"),
        ]
        for (query, expected) in expectations {
            let r = CLI.run(["search", "--paths", "-q", query], in: vault)
            #expect(paths(r).contains(expected), "\(query) should find \(expected): \(r.stdout) \(r.stderr)")
        }
        #expect(CLI.run(["search", "in:Lang", "-merge", "three-way", "--paths"], in: vault).stdout == "")
        // Prefixes of stemmed words: the unstemmed word is indexed beside its stem.
        for (query, expected) in [("runn*", "Lang/running.md"), ("Sund* runn*", "Lang/running.md"), ("jog*", "Lang/running.md"),
                                  ("synci*", "Lang/syncing.md")] {
            #expect(paths(CLI.run(["search", "--paths", query], in: vault)).contains(expected), "\(query)")
        }
        #expect(CLI.run(["search", "--paths", "runx*"], in: vault).status == 1)
    }

    @Test func malformedQueriesGetAMessageNotAnSQLiteError() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        for query in ["\"unbalanced", "OR", "a OR", "-", "*", "after:someday", "has:cats", "-lonely"] {
            let r = CLI.run(["search", query], in: vault)
            #expect(r.status == 2, "\(query)")
            #expect(r.stderr.hasPrefix("sheaf: cannot read the query: "), "\(query): \(r.stderr)")
            #expect(!r.stderr.lowercased().contains("sqlite"), "\(query)")
        }
        // Characters that mean something to FTS5 are plain text to Sheaf.
        for query in ["NEAR(a b)", "title:(x", "a AND", "col:umn", "^start", "\"\"\"x\"\"\""] {
            let r = CLI.run(["search", query], in: vault)
            #expect(r.status != 2 || r.stderr.hasPrefix("sheaf: cannot read the query"), "\(query): \(r.stderr)")
        }
    }

    @Test func exitCodesAndJSON() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        #expect(CLI.run(["search", "tram"], in: vault).status == 0)
        #expect(CLI.run(["search", "xyzzyplugh"], in: vault).status == 1)
        let json = CLI.run(["search", "--json", "tram"], in: vault)
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        #expect(parsed["version"] as? Int == 1)
        let hits = parsed["hits"] as! [[String: Any]]
        #expect(hits.first?["path"] as? String == "Trips/Lisbon/Tram 28.md")  // the title outranks bodies
        #expect((hits.first?["highlights"] as? [String])?.first?.lowercased().hasPrefix("tram") == true)
    }

    @Test func aCorruptOrMissingIndexCostsOneRebuild() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let before = CLI.run(["search", "--paths", "tram"], in: vault).stdout
        CLI.write("this is not a database", to: vault + "/.sheaf/index.sqlite")
        let corrupt = CLI.run(["search", "--paths", "tram"], in: vault)
        #expect(corrupt.status == 0)
        #expect(corrupt.stdout == before)
        try? FileManager.default.removeItem(atPath: vault + "/.sheaf/index.sqlite")
        #expect(CLI.run(["search", "--paths", "tram"], in: vault).stdout == before)
        let index = CLI.run(["index", "--rebuild"], in: vault)
        #expect(index.status == 0)
        #expect(index.stdout.contains(" added, 0 changed, 0 removed"))
        #expect(CLI.run(["index"], in: vault).stdout.hasPrefix("scanned 69 files: 0 added, 0 changed, 0 removed, 0 renamed"))
    }

    /// Damage that only a write meets: a free-list page number past the end of the file. The
    /// reads that open the index pass it; opening the index for writing then failed as "cannot
    /// write the index", so `index --rebuild`, the remedy every message names, exited 2 (the
    /// read-only connection the index first opens made that open late). It is rebuilt, and a
    /// write command on the damaged index rebuilds it too.
    @Test func damageOnlyAWriteMeetsIsRebuiltByIndexRebuild() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let before = CLI.run(["search", "--paths", "tram"], in: vault).stdout
        let path = vault + "/.sheaf/index.sqlite"
        func damage() throws {
            let file = try #require(FileHandle(forUpdatingAtPath: path))
            try file.seek(toOffset: 32)  // first free-list trunk page, then the free-list page count
            try file.write(contentsOf: Data([0x7F, 0xFF, 0xFF, 0xFF, 0, 0, 0, 1]))
            try file.close()
        }
        try damage()
        #expect(CLI.run(["search", "--paths", "tram"], in: vault).stdout == before, "reads pass the damage")
        let rebuilt = CLI.run(["index", "--rebuild"], in: vault)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(CLI.run(["search", "--paths", "tram"], in: vault).stdout == before)
        try damage()
        let written = CLI.run(["new", "Fresh quokka"], in: vault)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(CLI.run(["search", "--paths", "quokka"], in: vault).stdout == "Fresh quokka.md\n")
        #expect(CLI.run(["search", "--paths", "tram"], in: vault).stdout == before)
    }

    @Test func backlinksListTheNotesThatLinkHere() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("# Hub\n", to: vault + "/Hub.md")
        CLI.write("see [[Hub]]\n", to: vault + "/A/one.md")
        CLI.write("see [hub](../Hub.md)\n", to: vault + "/B/two.md")
        CLI.write("see [[Other/Hub]]\n", to: vault + "/C/three.md")
        #expect(CLI.run(["backlinks", "Hub"], in: vault).stdout == "A/one.md\nB/two.md\n")
    }

    /// `backlinks` of a note nothing links to printed nothing and exited 0, as if it had found
    /// some: a script could not tell. Nothing matched is exit 1, as for `search` and `conflicts`;
    /// the JSON still says so, with an empty list.
    @Test func backlinksOfANoteNothingLinksToExitsOne() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("# Lonely\n", to: vault + "/Lonely.md")
        let plain = CLI.run(["backlinks", "Lonely"], in: vault)
        #expect(plain.status == 1 && plain.stdout.isEmpty && plain.stderr.isEmpty, "\(plain.status) \(plain.stderr)")
        let json = CLI.run(["backlinks", "Lonely", "--json"], in: vault)
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["backlinks"] as? [Any])?.isEmpty == true, "\(json.stdout)")
        #expect(CLI.run(["backlinks", "no-such-note"], in: vault).status == 2)
    }
}

@Suite struct IgnoreTests {
    /// The walk asks git only about the paths some ignore rule could reach; the notes it lists
    /// must still be exactly those git does not ignore.
    @Test func theWalkSkipsWhatGitIgnores() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("*.tmp.md\nDrafts/\n", to: vault + "/.gitignore")
        CLI.write("private.md\n", to: vault + "/Projects/.gitignore")
        // core.excludesFile set in the repository, so that git and libgit2 read the same one
        // (libgit2 reads /etc/gitconfig even under GIT_CONFIG_NOSYSTEM).
        CLI.write("global-only.md\n", to: vault + "/.config/excludes")
        runProcess("/usr/bin/git", ["config", "core.excludesFile", vault + "/.config/excludes"], in: vault)
        let exclude = CLI.read(vault + "/.git/info/exclude")
        CLI.write(exclude + "scratch.md\n", to: vault + "/.git/info/exclude")
        for path in ["a.tmp.md", "Drafts/d.md", "Projects/private.md", "Projects/Sub/private.md", "private.md",
                     "Inbox/global-only.md", "Inbox/scratch.md", "Inbox/kept.md"] {
            CLI.write("# x\nzqxjvellum\n", to: vault + "/" + path)
        }
        let listed = CLI.run(["ls", "--paths"], in: vault).stdout.split(separator: "\n").map(String.init).sorted()
        let git = runProcess("/usr/bin/git", ["-c", "core.quotepath=off", "ls-files", "--others", "--exclude-standard"], in: vault)
        let expected = git.stdout.split(separator: "\n").map(String.init)
            .filter { VaultPath.isNote($0) && !$0.split(separator: "/").contains { $0.hasPrefix(".") } }.sorted()
        #expect(listed == expected)
        #expect(listed.contains("Inbox/kept.md") && listed.contains("private.md"))
        #expect(!listed.contains("Projects/Sub/private.md") && !listed.contains("Inbox/scratch.md"))
        #expect(!listed.contains("Inbox/global-only.md") && !listed.contains("Drafts/d.md"))
        let found = CLI.run(["search", "--paths", "zqxjvellum"], in: vault).stdout.split(separator: "\n").sorted()
        #expect(found == ["Inbox/kept.md", "private.md"])
    }
}

@Suite struct IndexedListingTests {
    /// `ls`, `tags` and name lookups read the index's catalog: while another command holds the
    /// lock they answer from the index as it is (and say so), and see new files once it is free.
    @Test func listingsReadTheIndex() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        #expect(CLI.run(["ls", "--paths"], in: vault).status == 0)  // builds the index
        CLI.write("---\ntags: [zqxjtag]\n---\n# Fresh note\n", to: vault + "/Inbox/Fresh.md")
        let fd = open(vault + "/.sheaf/lock", O_RDWR | O_CREAT, 0o644)
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        let busy = CLI.run(["ls", "--paths"], in: vault)
        #expect(!busy.stdout.contains("Inbox/Fresh.md"))
        #expect(busy.stderr.contains("answering from the index as it is"))
        #expect(!CLI.run(["tags"], in: vault).stdout.contains("zqxjtag"))
        #expect(CLI.run(["show", "Fresh note"], in: vault).status == 2)
        flock(fd, LOCK_UN)
        close(fd)
        #expect(CLI.run(["ls", "--paths"], in: vault).stdout.contains("Inbox/Fresh.md\n"))
        #expect(CLI.run(["tags"], in: vault).stdout.contains("1  zqxjtag\n"))
        #expect(CLI.run(["show", "Fresh note"], in: vault).stdout.contains("# Fresh note"))
    }
}
