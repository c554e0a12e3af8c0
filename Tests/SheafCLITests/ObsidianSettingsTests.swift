// `.obsidian/app.json` read as Obsidian's settings: where `attach` puts files and how it links
// them, where `new` puts notes, and which files the index leaves out.
import Foundation
import TestSupport
import Testing

@Suite struct ObsidianSettingsTests {
    func vault(_ temp: TempDir, appJSON: String) -> String {
        let vault = temp.path + "/vault"
        CLI.write("# Note\nText [[Template]].\n", to: vault + "/A/Note.md")
        CLI.write("# Template\nuses [[Note]]\n", to: vault + "/Templates/Template.md")
        CLI.write("# Old\nfindme\n", to: vault + "/Archive/Old.md")
        CLI.write("png", to: temp.path + "/photo.png")
        CLI.write(appJSON, to: vault + "/.obsidian/app.json")
        #expect(CLI.run(["init"], in: vault).status == 0)
        return vault
    }

    @Test func attachUsesTheAttachmentFolderAndMarkdownRelativeLinks() {
        let temp = TempDir()
        let v = vault(temp, appJSON: #"{"attachmentFolderPath": "Media", "useMarkdownLinks": true, "newLinkFormat": "relative"}"#)
        let r = CLI.run(["attach", "A/Note.md", temp.path + "/photo.png"], in: v)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: v + "/Media/photo.png"))
        #expect(CLI.read(v + "/A/Note.md").hasSuffix("![](../Media/photo.png)\n"))
    }

    @Test func attachUsesAFolderUnderTheNoteWithWikiEmbeds() {
        let temp = TempDir()
        let v = vault(temp, appJSON: #"{"attachmentFolderPath": "./assets"}"#)
        let r = CLI.run(["attach", "A/Note.md", temp.path + "/photo.png"], in: v)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: v + "/A/assets/photo.png"))
        #expect(CLI.read(v + "/A/Note.md").hasSuffix("![[photo.png]]\n"))
    }

    @Test func newUsesTheNewNoteFolder() {
        let temp = TempDir()
        let v = vault(temp, appJSON: #"{"newFileLocation": "folder", "newFileFolderPath": "Inbox"}"#)
        #expect(CLI.run(["new", "Fresh idea"], in: v).status == 0)
        #expect(FileManager.default.fileExists(atPath: v + "/Inbox/Fresh idea.md"))
        #expect(CLI.run(["new", "Placed", "--folder", "A"], in: v).status == 0)  // --folder wins
        #expect(FileManager.default.fileExists(atPath: v + "/A/Placed.md"))
    }

    @Test func userIgnoreFiltersAreLeftOutOfTheIndexButMvKeepsTheirLinks() {
        let temp = TempDir()
        let v = vault(temp, appJSON: #"{"userIgnoreFilters": ["Templates/", "/^Archive/.*\\.md$/"]}"#)
        let listed = CLI.run(["ls", "--paths"], in: v).stdout
        #expect(listed == "A/Note.md\n")
        #expect(CLI.run(["search", "findme"], in: v).stdout.isEmpty)
        #expect(CLI.run(["mv", "A/Note.md", "B/"], in: v).status == 0)
        #expect(CLI.read(v + "/Templates/Template.md") == "# Template\nuses [[Note]]\n")  // still reaches B/Note.md
        #expect(CLI.run(["mv", "B/Note.md", "Renamed"], in: v).status == 0)
        #expect(CLI.read(v + "/Templates/Template.md") == "# Template\nuses [[Renamed|Note]]\n")
    }

    /// `/^(\D+)+\d{9}/` in a synced app.json made every `search` take 35 s on 20 ordinary note
    /// names: each path ran on ICU's backtracking matcher (unanchored, one such name took it
    /// 86 s). Filters now run in linear time, with JavaScript's meaning: the names where nine
    /// digits follow are still left out. The deadline only stops a hang; the answer is checked.
    @Test func aCatastrophicIgnorePatternFromAppJSONNoLongerHangsSearch() {
        let temp = TempDir()
        let v = vault(temp, appJSON: #"{"userIgnoreFilters": ["/(\\D+)+\\d{9}/"]}"#)
        for i in 0..<10 {
            let name = "Meeting notes about the garden shed and its roof plans " + String(repeating: "x", count: i)
            CLI.write("# Shed\ngarden\n", to: v + "/Notes/" + name + ".md")
            CLI.write("# Scan\ngarden\n", to: v + "/Scans/" + name + " 12345678 x 123456789.md")
        }
        let r = runProcess(CLI.binary, ["search", "garden", "--paths", "--limit", "100"], in: v, deadline: 120)
        #expect(r.status == 0, "\(r.stderr)")
        let found = r.stdout.split(separator: "\n")
        #expect(found.count == 10 && found.allSatisfy { $0.hasPrefix("Notes/") }, "\(r.stdout)")
        #expect(!r.stderr.contains("userIgnoreFilters"), "\(r.stderr)")
    }

    /// A pattern that cannot run in bounded time (a back-reference) is refused with a warning
    /// naming it and the settings file; it leaves nothing out, and the other filters still apply.
    @Test func anIgnorePatternThatCannotRunInBoundedTimeIsRefusedWithAWarning() {
        let temp = TempDir()
        let v = vault(temp, appJSON: #"{"userIgnoreFilters": ["/(\\w+)\\1/", "Templates/"]}"#)
        CLI.write("# Twice\nfindme\n", to: v + "/A/abab.md")
        let r = CLI.run(["search", "findme", "--paths"], in: v)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("A/abab.md") && r.stdout.contains("Archive/Old.md"), "\(r.stdout)")
        #expect(r.stderr.contains(".obsidian/app.json") && r.stderr.contains("/(\\w+)\\1/")
                && r.stderr.contains("back-references"), "\(r.stderr)")
        #expect(CLI.run(["ls", "--paths"], in: v).stdout.contains("Templates/") == false)
    }
}
