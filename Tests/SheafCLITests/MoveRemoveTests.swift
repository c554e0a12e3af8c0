import Foundation
import SheafCore
import TestSupport
import Testing

@Suite struct MoveRemoveTests {
    /// Every note of a vault folder, parsed.
    func notes(_ vault: String) -> [String: (text: String, note: Note)] {
        var result: [String: (String, Note)] = [:]
        for (path, data) in CLI.snapshot(vault) where VaultPath.isNote(path) && !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            result[path] = (String(decoding: data, as: UTF8.self), Note(path: path, bytes: data))
        }
        return result
    }

    /// The note with every link's target cut out (for a wiki-link, up to its `]]`, so a label
    /// Sheaf adds is cut too), to compare "everything but the links".
    func withoutLinkTargets(_ text: String) -> String {
        let note = Note(path: "x.md", bytes: Array(text.utf8))
        let document = NoteDocument(text: text)
        func cut(_ part: String, _ links: [Link]) -> String {
            var bytes = Array(part.utf8)
            for link in links.sorted(by: { $0.targetRange.lowerBound > $1.targetRange.lowerBound }) {
                var end = link.targetRange.upperBound
                if link.isWiki { while end + 1 < bytes.count && !(bytes[end] == 0x5D && bytes[end + 1] == 0x5D) { end += 1 } }
                bytes.replaceSubrange(link.targetRange.lowerBound..<end, with: [])
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        return cut(document.frontMatter?.rendered ?? "", note.links.filter(\.inFrontMatter))
            + cut(document.body, note.links.filter { !$0.inFrontMatter })
    }

    /// What a reader sees of each wiki-link that is not an embed: its label, or its target.
    func visibleLinkTexts(_ note: Note) -> [String] {
        note.links.filter { $0.isWiki && !$0.isEmbed }.map { $0.label ?? ($0.target + ($0.fragment.map { " > " + $0 } ?? "")) }
    }

    /// A refused `mv` left its journal (written before the note's own links were edited and the
    /// note moved), and the next command, any command, finished "the interrupted move": once the
    /// user fixed the front-matter that made `mv` refuse, a `search` moved the note.
    @Test func aRefusedMoveIsNotMadeLaterByAnotherCommand() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let note = "Inbox/Broken front matter.md"
        let refused = CLI.run(["mv", note, "Work/"], in: vault)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: vault + "/.sheaf/move-journal"))
        let fixed = CLI.read(vault + "/" + note).replacingOccurrences(of: "tags: [diy, shed\n", with: "tags: [diy, shed]\n")
        CLI.write(fixed, to: vault + "/" + note)
        #expect(CLI.run(["search", "hardware"], in: vault).status == 0)
        #expect(CLI.run(["commit"], in: vault).status == 0)
        #expect(CLI.read(vault + "/" + note) == fixed)
        #expect(!FileManager.default.fileExists(atPath: vault + "/Work/Broken front matter.md"))
        #expect(!Replicas.git(["log", "--name-status", "-1"], in: vault).stdout.contains("Work/Broken front matter.md"))
    }

    @Test func mvOfTheMostLinkedSampleNoteUpdatesEveryLinkAndNothingElse() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let before = notes(vault)
        let targets = LinkTargets(paths: CLI.snapshot(vault).keys.filter { !$0.hasPrefix(".") })
        var incoming: [String: Int] = [:]
        for (path, entry) in before {
            for link in entry.note.links { if let t = targets.resolve(link, from: path), VaultPath.isNote(t) { incoming[t, default: 0] += 1 } }
        }
        let (old, count) = incoming.max { ($0.value, $1.key) < ($1.value, $0.key) }!
        #expect(count >= 2, "samples should have a note linked from several places")

        let r = CLI.run(["mv", old, "Archive/Moved note.md"], in: vault)
        #expect(r.status == 0, "\(r.stderr)")
        let after = notes(vault)
        let new = "Archive/Moved note.md"
        #expect(after[old] == nil && after[new] != nil)
        let newTargets = LinkTargets(paths: CLI.snapshot(vault).keys.filter { !$0.hasPrefix(".") })
        var toNew = 0
        for (path, entry) in after {
            for link in entry.note.links {
                let t = newTargets.resolve(link, from: path)
                #expect(t != old)
                if t == new { toNew += 1 }
            }
        }
        #expect(toNew == count)
        for (path, entry) in before where path != old {
            let now = after[path]!
            if entry.text == now.text { continue }
            // Outside link targets the note is the same, and every link reads the same.
            #expect(withoutLinkTargets(entry.text) == withoutLinkTargets(now.text), "\(path)")
            #expect(visibleLinkTexts(entry.note) == visibleLinkTexts(now.note), "\(path)")
            #expect(r.stdout.contains("  " + path))
        }
        #expect(CLI.sh("git status --porcelain", in: vault).status == 0)
    }

    @Test func mvRenamesInPlaceMovesIntoFoldersAndStagesInGit() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("# Alpha\nlinks to [[Beta]] and [b](Sub/Beta.md)\n", to: vault + "/T/Alpha.md")
        CLI.write("# Beta\nback to [[Alpha|home]] and [a](../Alpha.md)\n", to: vault + "/T/Sub/Beta.md")
        #expect(CLI.sh("git add -A && git -c user.name=t -c user.email=t@t commit -qm base", in: vault).status == 0)

        // A bare name renames in place.
        #expect(CLI.run(["mv", "Beta", "Gamma"], in: vault).status == 0)
        #expect(FileManager.default.fileExists(atPath: vault + "/T/Sub/Gamma.md"))
        #expect(CLI.read(vault + "/T/Alpha.md") == "# Alpha\nlinks to [[Gamma|Beta]] and [b](Sub/Gamma.md)\n")
        #expect(CLI.sh("git status --porcelain T/Sub", in: vault).stdout == "R  T/Sub/Beta.md -> T/Sub/Gamma.md\n")

        // A folder keeps the name; the moved note's own relative links follow it; empty folders go.
        #expect(CLI.run(["mv", "Gamma", "Elsewhere/"], in: vault).status == 0)
        #expect(CLI.read(vault + "/Elsewhere/Gamma.md") == "# Beta\nback to [[Alpha|home]] and [a](../T/Alpha.md)\n")
        #expect(CLI.read(vault + "/T/Alpha.md") == "# Alpha\nlinks to [[Gamma|Beta]] and [b](../Elsewhere/Gamma.md)\n")
        #expect(!FileManager.default.fileExists(atPath: vault + "/T/Sub"))
    }

    @Test func mvNeverOverwrites() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("one\n", to: vault + "/one.md")
        CLI.write("two\n", to: vault + "/two.md")
        let r = CLI.run(["mv", "one", "two"], in: vault)
        #expect(r.status == 2)
        #expect(r.stderr.contains("a file is already there: two.md"))
        #expect(CLI.read(vault + "/two.md") == "two\n")
        #expect(CLI.run(["mv", "one", "../outside"], in: vault).status == 2)
    }

    @Test func rmKeepsTheLastVersionInGitHistory() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("# Doomed\nlast words\n", to: vault + "/doomed.md")
        CLI.write("see [[doomed]]\n", to: vault + "/linker.md")
        let r = CLI.run(["rm", "Doomed"], in: vault)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: vault + "/doomed.md"))
        #expect(r.stderr.contains("1 note still links to it: linker.md"))
        #expect(CLI.sh("git show HEAD~1:doomed.md", in: vault).stdout == "# Doomed\nlast words\n")
        #expect(CLI.sh("git log -1 --format=%s", in: vault).stdout.hasSuffix(": 1 deleted\n"))
        #expect(CLI.sh("git status --porcelain", in: vault).stdout == "")
        #expect(CLI.sh("git fsck --no-progress", in: vault).status == 0)
    }
}
