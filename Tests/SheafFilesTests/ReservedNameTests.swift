// The byte-level shortcut of `VaultPathGuard.reservedName` against the rule as first written
// (drop HFS+-ignorable code points, then trailing dots and spaces, lower-case, compare): the
// same answer for names made of the characters that matter, ASCII and not.
import Testing
import TestSupport
@testable import SheafCore
@testable import SheafFiles

@Suite struct ReservedNameTests {
    /// The rule spelled out with strings, as the guard did before the shortcut.
    static func reference(_ name: Substring) -> VaultPathGuard.Reserved? {
        var scalars = name.unicodeScalars.filter { !VaultPathGuard.isIgnorable($0) }
        while let last = scalars.last, last == "." || last == " " { scalars.removeLast() }
        let folded = String(String.UnicodeScalarView(scalars)).lowercased()
        if folded == ".git" || folded == "git~1" { return .git }
        if folded == ".sheaf" || folded == "sheaf~1" { return .sheaf }
        return nil
    }

    @Test func theShortcutAnswersAsTheRuleForRandomNames() {
        let alphabet: [String] = [".", " ", "g", "G", "i", "I", "t", "T", "s", "S", "h", "H", "e", "a", "f", "~", "1",
                                  "\u{200C}", "\u{200F}", "\u{202A}", "\u{206F}", "\u{FEFF}", "\u{130}", "\u{212A}", "é", "x"]
        var random = SeededRandom(seed: 10)
        for _ in 0..<20_000 {
            let name = (0..<Int.random(in: 0...9, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined()
            #expect(VaultPathGuard.reservedName(Substring(name)) == Self.reference(Substring(name)), "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func spellingsOfDotGitAndDotSheafAreReserved() {
        for name in [".git", ".GIT", ".Git. .", "GIT~1", ".g\u{200C}it", "\u{FEFF}.sheaf", ".SHEAF ", "sheaf~1..."] {
            #expect(VaultPathGuard.reservedName(Substring(name)) != nil, "\(name)")
        }
        for name in ["git", ".gitx", ".gi", ".shea", ".sheaf~1", "caf\u{E9}", ".g\u{130}t", ".\u{212A}"] {
            #expect(VaultPathGuard.reservedName(Substring(name)) == nil, "\(name)")
        }
    }
}
