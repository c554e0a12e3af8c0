// Sheaf's one content hash is git's blob id: the expected values are what `git hash-object`
// printed for the same bytes.
import Foundation
import SheafCore
import SheafFiles
import Testing
import TestSupport

@Suite struct GitBlobIDTests {
    static let note = "---\ntags: [travel]\n---\n# Lisbon\r\nTram 28 climbs to the castle. Café\n"

    /// 20 MB and 7 bytes that are not one repeated block (so every block of SHA-1 differs).
    static func big() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 20 * 1024 * 1024 + 7) { buffer, count in
            for i in 0..<buffer.count { buffer[i] = UInt8(truncatingIfNeeded: i &* 31 &+ i / 1000) }
            count = buffer.count
        }
    }

    func file(_ bytes: [UInt8]) -> String {
        let path = TempDir.make("blob") + "/blob"
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    @Test func blobIDsAreTheOnesGitHashObjectPrints() throws {
        let cases: [([UInt8], String)] = [
            ([], "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"),
            (Array(Self.note.utf8), "fb83ab5b46e343e8398bd394045b63b403024d46"),
            (Self.big(), "4c9a9d12577e5f643bf8fc18c921d3614678a519"),
        ]
        for (bytes, id) in cases {
            #expect(GitBlobID.of(bytes) == id)
            let path = file(bytes)
            defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
            #expect(try GitBlobID.ofFile(path) == id)  // streamed in 1 MB pieces
        }
    }

    /// SHA-1 fed in pieces of every awkward size gives the digest of the whole: the pieces
    /// straddle the 64-byte blocks and the 56-byte padding boundary.
    @Test func sha1InPiecesEqualsSHA1AtOnce() {
        // FIPS 180 test vectors.
        var abc = SHA1()
        abc.update(Array("abc".utf8))
        #expect(SHA1.hex(abc.finish()) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        var two = SHA1()
        two.update(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        #expect(SHA1.hex(two.finish()) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")

        let bytes = Array(Self.big().prefix(10_000))
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 10_000] {
            let message = Array(bytes.prefix(length))
            var whole = SHA1()
            whole.update(message)
            let expected = whole.finish()
            for piece in [1, 3, 7, 63, 64, 65, 200] {
                var sha = SHA1()
                var start = 0
                while start < message.count {
                    let end = min(start + piece, message.count)
                    sha.update(message[start..<end])
                    start = end
                }
                #expect(sha.finish() == expected, "length \(length), pieces of \(piece)")
            }
        }
    }

    @Test func aFileThatCannotBeReadIsAnError() {
        #expect(throws: SheafError.self) { try GitBlobID.ofFile("/nonexistent/sheaf/blob") }
        #expect(throws: SheafError.self) { try GitBlobID.ofFile(FileManager.default.temporaryDirectory.path) }
    }
}
