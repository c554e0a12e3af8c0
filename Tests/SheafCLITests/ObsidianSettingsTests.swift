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
}
