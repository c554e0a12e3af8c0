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

    /// Paths are the same file when their bytes are: NFC and NFD spellings are two, equal bytes
    /// one, whether either string is native, a slice made a String, or bridged from Foundation.
    @Test func pathsAreTheSameWhenTheirBytesAre() {
        let nfc = "Notes/caf\u{E9}.md", nfd = "Notes/cafe\u{301}.md"
        #expect(nfc == nfd)  // canonical equivalence: one String, two files
        #expect(!PathBytes.same(nfc, nfd))
        #expect(PathBytes.same(nfc, String(decoding: Array(nfc.utf8), as: UTF8.self)))
        #expect(PathBytes.same("", ""))
        #expect(!PathBytes.same("a", ""))
        #expect(!PathBytes.same("Notes/a.md", "Notes/b.md"))
        #expect(!PathBytes.same("Notes/a.md", "notes/a.md"))
        #expect(PathBytes.same(String("x/Notes/a.md".dropFirst(2)), "Notes/a.md"))
    }

    /// `isNote` without allocating answers as the array-building way did, on random paths of
    /// extension-like pieces, cases, dots, slashes and non-ASCII bytes.
    @Test func isNoteAnswersAsItDidOnRandomPaths() {
        func byArray(_ path: String) -> Bool {
            var ext: [UInt8] = []
            for byte in path.utf8.reversed() {
                if byte == UInt8(ascii: ".") { break }
                if byte == UInt8(ascii: "/") || ext.count > 8 { return false }
                ext.append(byte | 0x20)
            }
            guard ext.count < path.utf8.count, !ext.isEmpty else { return false }
            let name = path.utf8.count - ext.count - 1
            guard name > 0, path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: name - 1)] != UInt8(ascii: "/") else { return false }
            return ext.elementsEqual("dm".utf8) || ext.elementsEqual("nwodkram".utf8)
        }
        let pieces = [".md", ".MD", ".markdown", "md", "MD", "Md", "markdown", "MarkDown", "markdowns", "mdx", "txt", ".", "/", "a", "é", "m", "d", "-", "M\u{301}", "\u{FF4D}d"]
        var paths = ["a.md", ".md", "a/.md", "a.MARKDOWN", "md", "a.", "a.md/", "a/b.md", "a.markdown.md", "", "."]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            paths.append((0..<Int.random(in: 1...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        var notes = 0
        for path in paths {
            #expect(VaultPath.isNote(path) == byArray(path), "\(path.debugDescription)")
            if byArray(path) { notes += 1 }
        }
        #expect(notes > 300)
    }
}
