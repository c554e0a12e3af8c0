// The Greek and CJK checks read UTF-8 bytes (ScalarScan.swift); they must say what a walk over
// the text's scalars says, at every edge of the ranges and for every length of encoding.
import Foundation
import SheafCore
import SheafFiles
import Testing
@testable import SheafIndex

@Suite struct ScalarScanTests {
    /// Scalars at and around the ranges' edges, in 1- to 4-byte encodings.
    static let edges: [UInt32] = [
        0x41, 0x7F, 0xE9, 0x33F, 0x36F, 0x370, 0x3FF, 0x400, 0x10FF, 0x1100, 0x11FF, 0x1200, 0x1EFF, 0x1F00,
        0x1FFF, 0x2000, 0x303F, 0x3040, 0x30FF, 0x3100, 0x3130, 0x318F, 0x3190, 0x33FF, 0x3400, 0x4DBF, 0x4DC0,
        0x4DFF, 0x4E00, 0x9FFF, 0xA000, 0xABFF, 0xAC00, 0xD7AF, 0xD7B0, 0xF8FF, 0xF900, 0xFAFF, 0xFB00, 0xFFFD,
        0x1F600, 0x1FFFF, 0x20000, 0x2FA1F, 0x2FA20, 0x10FFFF,
    ]

    @Test func greekAndCJKChecksAgreeWithAWalkOverTheScalars() {
        for value in Self.edges {
            let scalar = Unicode.Scalar(value)!
            for text in ["\(scalar)", "ascii \(scalar)", "é\(scalar)x", "\(scalar)\u{301}", "日 \(scalar)"] {
                let greek = text.unicodeScalars.contains { (0x0370...0x03FF).contains($0.value) || (0x1F00...0x1FFF).contains($0.value) }
                #expect(TextFolding.hasGreek(text) == greek, "U+\(String(value, radix: 16)) in \(text.debugDescription)")
                #expect(CJKBigrams.contains(text) == text.unicodeScalars.contains(where: CJKBigrams.isCJK),
                        "U+\(String(value, radix: 16)) in \(text.debugDescription)")
            }
        }
    }

    /// The FTS columns keep a tag's and a path's `/` (they were replaced by spaces): unicode61
    /// must cut words there, and an index made before must still lose its rows on a rewrite.
    @Test func aSlashInATagOrAPathStillSplitsItsWords() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sheaf-slash-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/.sheaf", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/Zeppelin", withIntermediateDirectories: true)
        try Data("---\ntags: [quasar/nebula]\n---\ntext\n".utf8).write(to: URL(fileURLWithPath: root + "/Zeppelin/Kestrel.md"))
        let vault = Vault(root: root)
        let index = try NoteIndex(vault: vault)
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        func paths(_ query: String) throws -> [String] {
            try index.search(SearchQuery.parse(query), vault: vault, options: SearchOptions(limit: 50, snippets: false)).map(\.path)
        }
        for word in ["zeppelin", "kestrel", "quasar", "nebula"] { #expect(try paths(word) == ["Zeppelin/Kestrel.md"], "\(word)") }
    }
}
