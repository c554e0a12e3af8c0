// `ls --folder` and `search in:` are one filter; a snippet marks what the index matched.
import Foundation
import TestSupport
import Testing

@Suite struct FilterAndHighlightTests {
    func lines(_ r: RunResult) -> Set<String> { Set(r.stdout.split(separator: "\n").map(String.init)) }

    func vault(_ temp: TempDir, notes: [String: String]) -> String {
        let vault = temp.path + "/vault"
        for (path, text) in notes { CLI.write(text, to: vault + "/" + path) }
        let r = CLI.run(["init"], in: vault)
        precondition(r.status == 0, r.stderr)
        return vault
    }

    /// Regression: `ls --folder trips` found nothing (it wanted the folder's exact spelling on
    /// disk) while `search in:trips` found the Trips notes; and `in:` counted a non-ASCII folder's
    /// bytes as characters, so `in:été` missed `Été/Sous/…`.
    @Test func lsFolderAndSearchInListTheSameNotes() throws {
        let temp = TempDir()
        let nfdEte = "E\u{301}te\u{301}"  // "Été" in NFD, as a Mac may write it
        let notes = [
            "Trips/Kyoto.md": "# Kyoto\nzqx\n",
            "Trips/Japan/Osaka/Castle.md": "# Castle\nzqx\n",
            "trips-old/Old.md": "# Old\nzqx\n",
            "Tripsy/Other.md": "# Other\nzqx\n",
            "Notes/Trips/Inner.md": "# Inner\nzqx\n",
            "Été/Plage.md": "# Plage\nzqx\n",
            "Été/Sous/Dune.md": "# Dune\nzqx\n",
            "\(nfdEte)-nfd/Loin.md": "# Loin\nzqx\n",
            "Root.md": "# Root\nzqx\n",
            "Tagged.md": "---\ntags: [Travel/Japan]\n---\n# Tagged\nzqx\n",
        ]
        let vault = vault(temp, notes: notes)
        let trips: Set<String> = ["Trips/Kyoto.md", "Trips/Japan/Osaka/Castle.md"]
        let expected: [(String, Set<String>)] = [
            ("trips", trips), ("Trips", trips), ("TRIPS", trips), ("/trips/", trips), ("./trips", trips),
            ("trips/japan", ["Trips/Japan/Osaka/Castle.md"]), ("TRIPS/Japan/osaka", ["Trips/Japan/Osaka/Castle.md"]),
            ("trips-old", ["trips-old/Old.md"]), ("TRIPS-OLD", ["trips-old/Old.md"]),
            ("trip", []), ("Kyoto", []), ("notes/trips", ["Notes/Trips/Inner.md"]),
            ("été", ["Été/Plage.md", "Été/Sous/Dune.md"]), ("ÉTÉ/sous", ["Été/Sous/Dune.md"]),
            ("été-nfd", ["\(nfdEte)-nfd/Loin.md"]),
        ]
        for (folder, want) in expected {
            let ls = CLI.run(["ls", "--paths", "--folder", folder], in: vault)
            let search = CLI.run(["search", "--paths", "--limit", "1000", "in:\(folder)"], in: vault)
            let withWord = CLI.run(["search", "--paths", "--limit", "1000", "zqx", "in:\(folder)"], in: vault)
            #expect(lines(ls) == want, "ls --folder \(folder): \(ls.stdout) \(ls.stderr)")
            #expect(lines(search) == want, "search in:\(folder): \(search.stdout) \(search.stderr)")
            #expect(lines(withWord) == want, "search zqx in:\(folder): \(withWord.stdout) \(withWord.stderr)")
            #expect(ls.status == (want.isEmpty ? 1 : 0) && search.status == ls.status, "\(folder): \(ls.stderr) \(search.stderr)")
        }
        // Excluding a folder is the same rule turned round.
        let excluded = CLI.run(["search", "--paths", "--limit", "1000", "zqx", "-in:trips"], in: vault)
        #expect(lines(excluded) == Set(notes.keys).subtracting(trips), "\(excluded.stdout)")
        // Tags: `ls --tag` is `search tag:` too.
        for tag in ["travel", "TRAVEL/japan", "#travel"] {
            let ls = CLI.run(["ls", "--paths", "--tag", tag], in: vault)
            #expect(lines(ls) == ["Tagged.md"], "ls --tag \(tag): \(ls.stdout) \(ls.stderr)")
        }
        #expect(lines(CLI.run(["search", "--paths", "tag:travel"], in: vault)) == ["Tagged.md"])
        #expect(CLI.run(["ls", "--folder", "../elsewhere"], in: vault).status == 2)
    }

    func highlights(_ query: String, in vault: String) throws -> [String: [String]] {
        let r = CLI.run(["search", "--json", query], in: vault)
        #expect(r.status == 0, "\(query): \(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        var result: [String: [String]] = [:]
        for hit in object?["hits"] as? [[String: Any]] ?? [] {
            result[hit["path"] as? String ?? ""] = hit["highlights"] as? [String] ?? []
        }
        return result
    }

    /// Regression: the snippet highlighter guessed stems on its own ("running" -> "runn"), so a
    /// note found through the index's stem ("runs") had no highlight.
    @Test func aSearchForRunningHighlightsRunsInANoteThatHasOnlyThat() throws {
        let temp = TempDir()
        let vault = vault(temp, notes: [
            "Runs.md": "# Morning\nThe dog sleeps.\nShe runs along the river every day.\n",
        ])
        #expect(try highlights("running", in: vault) == ["Runs.md": ["runs"]])
        #expect(try highlights("RUNNING", in: vault) == ["Runs.md": ["runs"]])
    }

    /// Regression: `copying` found notes with only `copy` or `copied`, and nothing asked for the
    /// word itself; `=copying` finds and marks that word only, and `--help` says how.
    @Test func anExactWordIsFoundAndMarkedWithoutItsOtherForms() throws {
        let temp = TempDir()
        let vault = vault(temp, notes: [
            "Copy.md": "# One\nPlease copy this.\n",
            "Copied.md": "# Two\nShe copied the file.\n",
            "Copying.md": "# Three\nCopying files, then copied ones.\n",
        ])
        #expect(try highlights("=copying", in: vault) == ["Copying.md": ["Copying"]])
        #expect(try highlights("copying", in: vault) == ["Copy.md": ["copy"], "Copied.md": ["copied"],
                                                          "Copying.md": ["Copying", "copied"]])
        #expect(CLI.run(["search", "--help"], in: vault).stdout.contains("=word"))
    }

    /// What matched is marked, however it matched: accents folded both ways, prefixes on the
    /// unstemmed word, phrases as a whole, CJK by bigrams inside one run, Greek without accents.
    @Test func highlightsMarkWhatTheIndexMatched() throws {
        let temp = TempDir()
        let vault = vault(temp, notes: [
            "Cafe.md": "# Places\nWe met at the Café Central and talked.\n",
            "Prefix.md": "# Training\nShe was running late.\n",
            "Phrase.md": "# Merge\nA merge that is three-way, then a three-way merge of notes.\n",
            "Tokyo.md": "# 旅行\n東京タワーに行きました。京都も。\n",
            "Greek.md": "# Χαιρετισμός\nΚαλημέρα σας, φίλοι.\n",
        ])
        #expect(try highlights("cafe", in: vault) == ["Cafe.md": ["Café"]])
        #expect(try highlights("runn*", in: vault) == ["Prefix.md": ["running"]])
        #expect(try highlights("\"three-way merge\"", in: vault) == ["Phrase.md": ["three-way merge"]])
        #expect(try highlights("京タ", in: vault) == ["Tokyo.md": ["京タ"]])
        #expect(try highlights("καλημερα", in: vault) == ["Greek.md": ["Καλημέρα"]])
    }
}
