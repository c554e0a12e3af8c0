import Foundation
import SheafCore
import SheafFiles
import Testing
import TestSupport
@testable import SheafIndex

/// Every string a search sends FTS5 is quoted whole: nothing typed is read as FTS5 syntax.
@Suite struct QueryQuotingTests {
    /// Regression, "a quote before a combining mark ended the FTS5 string": `"` + U+0301 is one
    /// Character, and the Character-wise replacement doubled no `"` in it, so the rest of the
    /// word (` OR alpha` here) was read as FTS5 syntax and found a note that holds no such word.
    @Test func aQuoteBeforeACombiningMarkIsDoubledToo() throws {
        #expect(Array(NoteIndex.quote("a\"\u{301}b").utf8) == Array("\"a\"\"\u{301}b\"".utf8))
        let temp = TempDir("quoting")
        try FileManager.default.createDirectory(atPath: temp.path + "/.sheaf", withIntermediateDirectories: true)
        TestFile.write("# Alpha\nalpha only\n", to: temp.path + "/a.md")
        let vault = Vault(root: temp.path)
        let index = try NoteIndex(vault: vault)
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        #expect(try index.search(SearchQuery(terms: [.word("alpha")]), vault: vault).map(\.path) == ["a.md"])
        for word in ["zz\"\u{301} OR alpha", "zz\"\u{301}\" OR \"alpha", "\"\u{301}\u{302} OR alpha"] {
            #expect(try index.search(SearchQuery(terms: [.word(word)]), vault: vault).isEmpty, "\(word.unicodeScalars.map { $0.value })")
        }
    }
}
