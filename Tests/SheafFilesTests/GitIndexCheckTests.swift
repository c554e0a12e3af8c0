import Foundation
import SheafCore
import SheafFiles
import Testing
import TestSupport

/// git's own terms for a damaged `.git/index` (GitIndexCheck): its checksum, not libgit2's verdict.
@Suite struct GitIndexCheckTests {
    @Test func anIndexIsDamagedWhenItsChecksumOrHeaderSaysSo() throws {
        let temp = TempDir("gitindex")
        #expect(runProcess("/usr/bin/git", ["init", "-q"], in: temp.path).status == 0)
        try Data("# A\n".utf8).write(to: URL(fileURLWithPath: temp.path + "/a.md"))
        #expect(runProcess("/usr/bin/git", ["add", "a.md"], in: temp.path).status == 0)
        let index = Array(try #require(FileManager.default.contents(atPath: temp.path + "/.git/index")))
        #expect(!GitIndexCheck.isDamaged(index))
        #expect(GitIndexCheck.isDamaged([]))
        #expect(GitIndexCheck.isDamaged(Array(index.prefix(index.count / 2))))
        var flipped = index
        flipped[20] ^= 0x40
        #expect(GitIndexCheck.isDamaged(flipped))
        var unsigned = index
        unsigned.replaceSubrange((index.count - 20)..., with: [UInt8](repeating: 0, count: 20))
        #expect(!GitIndexCheck.isDamaged(unsigned))  // index.skipHash: written without a checksum
        var wrongVersion = index
        wrongVersion[7] = 9
        #expect(GitIndexCheck.isDamaged(wrongVersion))
    }
}
