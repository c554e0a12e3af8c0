import Foundation
import Testing
@testable import SheafCore

@Suite struct ObsidianSettingsParsingTests {
    func settings(_ json: String) -> ObsidianSettings { ObsidianSettings.parse(Data(json.utf8))! }

    @Test func attachmentFolderFollowsObsidiansFourForms() {
        #expect(settings("{}").attachmentFolder(forNoteAt: "A/B/n.md") == "")  // Obsidian's default: the root
        #expect(settings(#"{"attachmentFolderPath": "/"}"#).attachmentFolder(forNoteAt: "A/n.md") == "")
        #expect(settings(#"{"attachmentFolderPath": "./"}"#).attachmentFolder(forNoteAt: "A/B/n.md") == "A/B")
        #expect(settings(#"{"attachmentFolderPath": "./assets"}"#).attachmentFolder(forNoteAt: "A/n.md") == "A/assets")
        #expect(settings(#"{"attachmentFolderPath": "Media/Images"}"#).attachmentFolder(forNoteAt: "A/n.md") == "Media/Images")
        #expect(settings(#"{"attachmentFolderPath": "../outside"}"#).attachmentFolder(forNoteAt: "n.md") == nil)
    }

    @Test func newNoteFolderAndWrongTypesKeepDefaults() {
        #expect(settings(#"{"newFileLocation": "current"}"#).newNoteFolder(workingFolder: "Work") == "Work")
        #expect(settings(#"{"newFileLocation": "folder", "newFileFolderPath": "Inbox/"}"#).newNoteFolder(workingFolder: nil) == "Inbox")
        #expect(settings(#"{"useMarkdownLinks": "yes", "newLinkFormat": 3}"#) == ObsidianSettings())
        #expect(ObsidianSettings.parse(Data("[1]".utf8)) == nil)
    }

    @Test func userIgnoreFiltersArePrefixesOrRegexes() {
        let s = settings(#"{"userIgnoreFilters": ["Templates/", "Scratch", "/\\.excalidraw\\.md$/"]}"#).ignoreFilters
        #expect(s.excludes("Templates/Daily.md", isFolder: false))
        #expect(s.excludes("Templates", isFolder: true))
        #expect(s.excludes("Scratch pad.md", isFolder: false))  // Obsidian's filters are plain prefixes
        #expect(s.excludes("A/Drawing.excalidraw.md", isFolder: false))
        #expect(!s.excludes("A/Templates/x.md", isFolder: false))
    }
}
