import Foundation
import Testing
import TestSupport
@testable import SheafGit

/// Blobs in bounded memory: sizes from object headers, blobs streamed to files (loose objects
/// through libgit2, packed ones through `git cat-file`), work-tree files hashed in chunks.
@Suite struct BlobStreamTests {
    let dir: String

    init() {
        dir = TempDir.make("blob")
    }

    func git(_ args: [String]) -> Int32 {
        GitCLI.run(args, in: dir).status
    }

    /// Bytes that are not all alike, so a wrong offset or a short copy shows.
    static func pattern(_ count: Int) -> [UInt8] {
        var state: UInt32 = 2463534242
        return (0..<count).map { _ in
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            return UInt8(truncatingIfNeeded: state)
        }
    }

    func commitFile(_ bytes: [UInt8], packed: Bool) throws -> (Repository, String) {
        let repo = try Repository.create(workTree: dir)
        #expect(FileManager.default.createFile(atPath: dir + "/big.bin", contents: Data(bytes)))
        #expect(git(["add", "big.bin"]) == 0 && git(["commit", "-qm", "big"]) == 0)
        if packed {
            #expect(git(["gc", "-q"]) == 0)
        }
        let objects = try FileManager.default.subpathsOfDirectory(atPath: dir + "/.git/objects")
        #expect(objects.contains { $0.hasSuffix(".pack") } == packed)
        let head = try #require(try repo.resolveCommit("HEAD"))
        let blob = try #require(try repo.file(at: "big.bin", inCommit: head))
        return (repo, blob.blob)
    }

    @Test(arguments: [false, true])
    func writeBlobStreamsALargeBlobByteForByte(packed: Bool) throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bytes = Self.pattern(Repository.streamingThreshold + 123_457)
        let (repo, blob) = try commitFile(bytes, packed: packed)
        #expect(try repo.blobSize(blob) == bytes.count)
        let out = dir + "/out.bin"
        try repo.writeBlob(blob, toFile: out)
        #expect(FileManager.default.contents(atPath: out) == Data(bytes))
        #expect(try Repository.blobID(ofFile: out) == blob)
        // At an offset of an open descriptor, which stays open.
        let fd = open(dir + "/offset.bin", O_RDWR | O_CREAT | O_TRUNC, 0o644)
        #expect(write(fd, "head", 4) == 4)
        try repo.writeBlob(blob, toFileDescriptor: fd)
        #expect(lseek(fd, 0, SEEK_CUR) == 4 + bytes.count)
        #expect(close(fd) == 0)
        #expect(FileManager.default.contents(atPath: dir + "/offset.bin") == Data(Array("head".utf8) + bytes))
    }

    @Test func smallBlobsAndSymlinksAreHashedAndWrittenAsGitDoes() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let repo = try Repository.create(workTree: dir)
        let small = Array("# Note\n\nbody\n".utf8)
        let blob = try repo.createBlob(small)
        #expect(try repo.blobSize(blob) == small.count)
        try repo.writeBlob(blob, toFile: dir + "/small.md")
        #expect(FileManager.default.contents(atPath: dir + "/small.md") == Data(small))
        #expect(try Repository.blobID(ofFile: dir + "/small.md") == blob)
        try FileManager.default.createSymbolicLink(atPath: dir + "/link", withDestinationPath: "small.md")
        #expect(try Repository.blobID(ofFile: dir + "/link") == (try Repository.blobID(of: Array("small.md".utf8))))
        let empty = try repo.createBlob([])
        try repo.writeBlob(empty, toFile: dir + "/empty")
        #expect(FileManager.default.contents(atPath: dir + "/empty") == Data())
        // A missing object is an error, not a size.
        #expect(throws: GitError.self) { try repo.blobSize(String(repeating: "1", count: 40)) }
    }

    /// Files over the similarity limit are paired as renames only when their blob is identical;
    /// small files are still paired by similarity beside them.
    @Test func changesPairLargeFilesOnlyByIdenticalBlobs() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let repo = try Repository.create(workTree: dir)
        let big = Self.pattern(Repository.similarityLimit + 1)
        #expect(FileManager.default.createFile(atPath: dir + "/big.bin", contents: Data(big)))
        #expect(FileManager.default.createFile(atPath: dir + "/gone.bin", contents: Data(big.reversed())))
        let note = (1...40).map { "line \($0)\n" }.joined()
        #expect(FileManager.default.createFile(atPath: dir + "/note.md", contents: Data(note.utf8)))
        #expect(git(["add", "."]) == 0 && git(["commit", "-qm", "one"]) == 0)
        let one = try #require(try repo.resolveCommit("HEAD"))
        #expect(git(["mv", "big.bin", "moved.bin"]) == 0 && git(["mv", "note.md", "renamed.md"]) == 0)
        #expect(git(["rm", "-q", "gone.bin"]) == 0)
        #expect(FileManager.default.createFile(atPath: dir + "/renamed.md", contents: Data((note + "one more\n").utf8)))
        #expect(FileManager.default.createFile(atPath: dir + "/new.bin", contents: Data(big.reversed().dropFirst())))
        #expect(git(["add", "."]) == 0 && git(["commit", "-qm", "two"]) == 0)
        let two = try #require(try repo.resolveCommit("HEAD"))
        let changes = try repo.changes(from: one, to: two)
        let summary = changes.map { "\($0.kind.rawValue) \($0.oldPath) -> \($0.path)" }.sorted()
        #expect(summary == ["added new.bin -> new.bin", "deleted gone.bin -> gone.bin",
                            "renamed big.bin -> moved.bin", "renamed note.md -> renamed.md"])
    }
}
