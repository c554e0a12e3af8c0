// A path is split where its bytes hold `/` or `.`, as the file system splits it, even when a
// combining mark follows the separator and Swift counts both as one Character.
import SheafCore
import Testing

struct VaultPathBytesTests {
    @Test func aNoteWhoseNameStartsWithACombiningMarkKeepsItsFolderAndIsFoundByName() {
        let path = "Trips/\u{301}Lisbon.md"
        #expect(VaultPath.folder(path) == "Trips")
        #expect(VaultPath.fileName(path) == "\u{301}Lisbon.md")
        #expect(VaultPath.stem(path) == "\u{301}Lisbon")
        #expect(VaultPath.withoutNoteExtension(path) == "Trips/\u{301}Lisbon")
        let targets = LinkTargets(paths: [path, "Index.md"])
        #expect(targets.resolve("\u{301}Lisbon", from: "Index.md") == path)
    }

    @Test func anExtensionAfterADotFollowedByACombiningMarkIsSplitAtTheDot() {
        let path = "Scans/page.\u{301}png"
        #expect(VaultPath.fileExtension(path) == "\u{301}png")
        #expect(VaultPath.stem(path) == "page")
    }
}
