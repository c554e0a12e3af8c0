import Foundation
import Testing
import TestSupport
@testable import SheafCore

/// A word quoted for the shell is that word to the shell, whatever it holds.
@Suite struct ShellWordTests {
    /// What `sh -c 'printf %s WORD'` prints for the quoted word, and what files it made.
    static func shellReads(_ quoted: String, in folder: String) -> String {
        runProcess("/bin/sh", ["-c", "printf %s " + quoted], in: folder).stdout
    }

    /// Regression, "a quote then a combining mark ended the quoted word": `'` + U+0301 is one
    /// Character, which the Character-wise replacement passed over, so the shell read the rest
    /// of a synced name (`; touch PWNED`) as a command.
    static let words = [
        "x'\u{301}; touch PWNED; echo '", "'\u{301}$(touch PWNED)'", "plain", "two words", "it's",
        "\u{301}'\u{302}'\u{303}", "$(touch PWNED) `touch PWNED` \"q\" \\ ;&|<>*?~",
    ]

    @Test(arguments: words)
    func aQuotedWordIsTheWordWhateverItHolds(_ word: String) throws {
        let temp = TempDir("shellword")
        #expect(Self.shellReads(ShellWord.quoted(word), in: temp.path) == word)
        #expect(Self.shellReads(ShellWord.singleQuoted(word), in: temp.path) == word)
        #expect(!FileManager.default.fileExists(atPath: temp.path + "/PWNED"))
    }

    @Test func scalarsAreReplacedEvenWhereAMarkFollowsThem() {
        #expect("a:\u{301}b\\\u{302}".replacingScalars([":": "\\:", "\\": "\\\\"]) == "a\\:\u{301}b\\\\\u{302}")
    }
}
