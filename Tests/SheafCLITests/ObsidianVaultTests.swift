// A small vault written for these tests that holds every case of issue 12 (links as Obsidian
// reads them), tried through the CLI as a user would: show --json, backlinks, attachments
// --orphans, and mv followed by mv back.
import Foundation
import SheafCore
import Testing
import TestSupport

@Suite struct ObsidianVaultTests {
    static let files: [String: String] = [
        "Template Hub.md": "# Template hub\n",
        "Real.md": "<!-- made from [[Template Hub]] -->\nUses the [[Template Hub]] on purpose.\n",
        "Daily/One.md": "<!-- made from [[Template Hub]] -->\nFirst day.\n",
        "Daily/Two.md": "<!--\n[[Template Hub]]\n-->\nSecond day, see [[Real]].\n",
        "A/Source.md": """
            # Heading
            [[Target]] and [[./B/Target]] and [[../C/Other]] and [[#Heading]].
            [by name](Note.md), [root path](Folder/Deep.md), ![pic](image.png).

            > [!example] Not links
            > ```
            > [[Ghost]]
            > ```

            | Link | Why |
            | --- | --- |
            | [[Other\\|alias]] | escaped pipe |

            """,
        "A/B/Target.md": "# Target under A\n",
        "C/Target.md": "# Target in C\n",
        "C/Other.md": "# Other\nBack to [[internal links]].\n",
        "Help/Internal links.md": "# Internal links\n",
        "Notes/Note.md": "# Note\n",
        "Folder/Deep.md": "# Deep\n",
        "Books.md": "# Books\n",
        "Books/Reading.md": """
            ---
            categories: "[[Books]]"
            cover: "[[cover.jpg]]"
            related:
              - "[[Other]]"
            ---
            # Reading

            """,
        "Media/image.png": "png",
        "Media/cover.jpg": "jpg",
        "Media/unused.png": "png",
        "Board.canvas": "{}",
        "Views.base": "views: []\n",
    ]

    static func makeVault(_ temp: TempDir, files: [String: String] = files) -> String {
        let vault = temp.path + "/vault"
        for (path, text) in files { CLI.write(text, to: vault + "/" + path) }
        let r = CLI.run(["init"], in: vault)
        precondition(r.status == 0, r.stderr)
        return vault
    }

    struct Shown: Decodable {
        struct L: Decodable { let kind: String; let target: String; let fragment: String?; let resolved: String? }
        let links: [L]
    }

    @Test func showJSONResolvesEveryLinkAsObsidianDoes() throws {
        let temp = TempDir()
        let vault = Self.makeVault(temp)
        let r = CLI.run(["show", "A/Source.md", "--json"], in: vault)
        #expect(r.status == 0, "\(r.stderr)")
        let shown = try JSONDecoder().decode(Shown.self, from: Data(r.stdout.utf8))
        #expect(shown.links.map(\.target) == ["Target", "./B/Target", "../C/Other", "", "Note.md", "Folder/Deep.md", "image.png", "Other"])
        #expect(shown.links.map(\.resolved) == ["A/B/Target.md", "A/B/Target.md", "C/Other.md", "A/Source.md", "Notes/Note.md",
                                                "Folder/Deep.md", "Media/image.png", "C/Other.md"])
    }

    @Test func backlinksCountOnlyWhatObsidianCounts() {
        let temp = TempDir()
        let vault = Self.makeVault(temp)
        func backlinks(_ note: String) -> [String] {
            CLI.run(["backlinks", note], in: vault).stdout.split(separator: "\n").map(String.init)
        }
        #expect(backlinks("Template Hub.md") == ["Real.md"])  // commented links do not count
        #expect(backlinks("Books.md") == ["Books/Reading.md"])  // a property link does
        #expect(backlinks("C/Other.md") == ["A/Source.md", "Books/Reading.md"])
        #expect(backlinks("A/B/Target.md") == ["A/Source.md"])
        #expect(backlinks("C/Target.md") == [])
    }

    @Test func attachmentsOrphansListOnlyWhatNothingLinks() {
        let temp = TempDir()
        let vault = Self.makeVault(temp)
        let r = CLI.run(["attachments", "--orphans"], in: vault)
        #expect(r.status == 0, "\(r.stderr)")
        let orphans = r.stdout.split(separator: "\n").map { String($0.split(separator: " ").first ?? "") }
        #expect(orphans == ["Media/unused.png"])  // not the property's cover, not .canvas or .base
        let all = CLI.run(["attachments"], in: vault).stdout
        #expect(!all.contains("Board.canvas") && !all.contains("Views.base"))
    }

    /// Every link of every note, resolved against the files on disk: note path -> targets.
    static func resolvedLinks(_ vault: String) -> [String: [String?]] {
        let snapshot = CLI.snapshot(vault)
        let targets = LinkTargets(paths: snapshot.keys)
        var out: [String: [String?]] = [:]
        for (path, data) in snapshot where VaultPath.isNote(path) {
            out[path] = Note(path: path, bytes: data).links.map { targets.resolve($0, from: path) }
        }
        return out
    }

    @Test func mvRewritesEveryLinkFormAndMvBackRestoresEveryByte() {
        let temp = TempDir()
        let vault = Self.makeVault(temp)
        let before = CLI.snapshot(vault)
        let linksBefore = Self.resolvedLinks(vault)
        let r = CLI.run(["mv", "C/Other.md", "Elsewhere/Renamed.md"], in: vault)
        #expect(r.status == 0, "\(r.stderr)")
        // No link dangles: each reaches what it reached, with the moved note under its new name.
        let linksAfter = Self.resolvedLinks(vault)
        for (path, targets) in linksBefore {
            let newPath = path == "C/Other.md" ? "Elsewhere/Renamed.md" : path
            #expect(linksAfter[newPath] == targets.map { $0 == "C/Other.md" ? "Elsewhere/Renamed.md" : ($0 == path ? newPath : $0) }, "\(path)")
        }
        let source = CLI.read(vault + "/A/Source.md")
        #expect(source.contains("[[../Elsewhere/Renamed|../C/Other]]"))
        #expect(source.contains("| [[Renamed\\|alias]] |"))
        #expect(CLI.read(vault + "/Books/Reading.md").contains("  - \"[[Renamed|Other]]\"\n"))
        // The moved note's own link still reads `internal links`, not re-cased.
        #expect(CLI.read(vault + "/Elsewhere/Renamed.md") == "# Other\nBack to [[internal links]].\n")

        let back = CLI.run(["mv", "Elsewhere/Renamed.md", "C/Other.md"], in: vault)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(CLI.snapshot(vault) == before)
    }

    /// A random vault: notes with unique names in a few folders, attachments, and links to them in
    /// every form Sheaf reads (bare names, vault paths, `./` and `../` paths, `/` paths, embeds,
    /// headings, labels, `\|` in tables, markdown links relative, by name and from the root,
    /// front-matter properties), some of them in code or comments.
    static func randomVault(_ rng: inout SeededRandom) -> [String: String] {
        let folders = ["", "A", "A/B", "C", "Deep/Er/Est"]
        var notes: [String] = []
        for i in 0..<8 {
            let folder = folders.randomElement(using: &rng)!
            notes.append(VaultPath.join(folder, "Note \(i).md"))
        }
        let pictures = ["A/pic.png", "media/photo one.jpg"]
        var files: [String: String] = [:]
        for p in pictures { files[p] = "x" }
        for note in notes {
            var lines: [String] = []
            var properties: [String] = []
            for _ in 0..<6 {
                let target = (notes + pictures).randomElement(using: &rng)!
                let stem = VaultPath.isNote(target) ? VaultPath.stem(target) : VaultPath.fileName(target)
                let path = VaultPath.isNote(target) ? VaultPath.withoutNoteExtension(target) : target
                var relative = VaultPath.relative(from: VaultPath.folder(note), to: path)
                if !relative.hasPrefix("../") { relative = "./" + relative }
                let markdownRelative = LinkRewriter.percentEncoded(VaultPath.relative(from: VaultPath.folder(note), to: target))
                let forms = [
                    "[[\(stem)]]", "[[\(path)]]", "[[\(relative)]]", "[[/\(path)]]", "![[\(stem)]]",
                    "[[\(stem)#Part]]", "[[\(stem)|a label]]", "| [[\(stem)\\|cell]] |",
                    "[m](\(markdownRelative))", "[m](\(LinkRewriter.percentEncoded(VaultPath.fileName(target))))",
                    "[m](/\(LinkRewriter.percentEncoded(target)))", "<!-- [[\(stem)]] -->", "`[[\(stem)]]`",
                ]
                let form = forms.randomElement(using: &rng)!
                lines.append(form.hasPrefix("|") ? "\n| t |\n| - |\n" + form + "\n" : "Text " + form + " end.")
                if Bool.random(using: &rng) { properties.append("  - \"[[\(stem)]]\"") }
            }
            let front = properties.isEmpty ? "" : "---\nrelated:\n" + properties.joined(separator: "\n") + "\n---\n"
            files[note] = front + "# " + VaultPath.stem(note) + "\n" + lines.joined(separator: "\n") + "\n"
        }
        return files
    }

    @Test func mvThenMvBackRestoresEveryByteOfEveryNote() {
        let rounds = ProcessInfo.processInfo.environment["SHEAF_LONG_TESTS"] == "1" ? 60 : 4
        for seed in 0..<rounds {
            var rng = SeededRandom(seed: seed)
            let temp = TempDir()
            let vault = Self.makeVault(temp, files: Self.randomVault(&rng))
            let before = CLI.snapshot(vault)
            let notes = before.keys.filter { VaultPath.isNote($0) }.sorted()
            let moved = notes.randomElement(using: &rng)!
            let destinations = ["Elsewhere/", "A/B/", "Deep/", "Renamed here", "New/Place/Other name.md"]
            var dest = destinations.randomElement(using: &rng)!
            if dest == VaultPath.folder(moved) + "/" { dest = "Elsewhere/" }  // already there
            let r = CLI.run(["mv", moved, dest], in: vault)
            #expect(r.status == 0, "seed \(seed): \(r.stderr)")
            let now = Set(CLI.snapshot(vault).keys).subtracting(before.keys)
            guard let newPath = now.first(where: { VaultPath.isNote($0) }) else { Issue.record("seed \(seed): nothing moved"); continue }
            // A destination without a folder is a new name in the note's folder: `/` names the root.
            let back = CLI.run(["mv", newPath, moved.contains("/") ? moved : "/" + moved], in: vault)
            #expect(back.status == 0, "seed \(seed): mv \(newPath) \(moved): \(back.stderr)")
            let after = CLI.snapshot(vault)
            for (path, data) in before where after[path] != data {
                Issue.record("seed \(seed), mv \(moved) \(dest): \(path) differs:\n\(String(decoding: data, as: UTF8.self))\n---\n\(String(decoding: after[path] ?? Data(), as: UTF8.self))")
            }
        }
    }
}
