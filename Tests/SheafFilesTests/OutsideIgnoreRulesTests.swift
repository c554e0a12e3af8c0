// The ignore rules from outside the work tree are read without libgit2 only where git's
// configuration is plain; anything its own reader could take otherwise is left to libgit2.
import Testing
@testable import SheafFiles

@Suite struct OutsideIgnoreRulesTests {
    @Test func onlyAPlainExcludesFileIsReadAndAnythingElseIsLeftToGitsReader() {
        #expect(OutsideIgnoreRules.plainExcludesFile(in: "[user]\n\tname = A\n") == .some(nil))
        #expect(OutsideIgnoreRules.plainExcludesFile(in: "[core]\n\texcludesFile = /etc/gitignore\n") == .some("/etc/gitignore"))
        #expect(OutsideIgnoreRules.plainExcludesFile(in: "[CORE]\n  ExcludesFile=~/x\n[user]\nexcludesfile = /not/core\n") == .some("~/x"))
        for unclear in ["[core]\n\texcludesFile = \"/q\"\n", "[include]\n\tpath = other\n", "[includeIf \"gitdir:~/\"]\n\tpath = x\n",
                        "[core]\n\texcludesFile = /a\\\n/b\n", "[core]\n\texcludesFile = /a # note\n", "[core \"sub\"]\n\tx = 1\n",
                        "[core]\n\texcludesFile\n"] {
            #expect(OutsideIgnoreRules.plainExcludesFile(in: unclear) == nil, "\(unclear)")
        }
    }
}
