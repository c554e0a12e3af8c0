import Foundation
import Testing
import TestSupport
@testable import SheafGit

@Suite struct RepositoryTests {
    func write(_ text: String, _ path: String) { TestFile.replace(text, at: path) }

    func git(_ args: [String], in dir: String) -> String { GitCLI.output(args, in: dir) }

    @Test func createMakesAnUnbornMainBranch() throws {
        let dir = TempDir.make("git")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let repo = try Repository.create(workTree: dir)
        #expect(try repo.head() == nil)
        #expect(git(["symbolic-ref", "HEAD"], in: dir) == "refs/heads/main")
        #expect(repo.gitDirectory == dir + "/.git")
    }

    @Test func openDoesNotAdoptAnEnclosingRepository() throws {
        let dir = TempDir.make("git")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try Repository.create(workTree: dir)
        try FileManager.default.createDirectory(atPath: dir + "/inner", withIntermediateDirectories: true)
        #expect(try Repository.open(workTree: dir + "/inner") == nil)
        #expect(try Repository.open(workTree: dir) != nil)
    }

    @Test func snapshotCommitsAddsEditsDeletesAndRenames() throws {
        let dir = TempDir.make("git")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let repo = try Repository.create(workTree: dir)
        write("alpha\nbeta\ngamma\ndelta\n", dir + "/a.md")
        write("one\n", dir + "/b.md")
        write("ignored\n", dir + "/.sheaf/index")
        write(".sheaf/\n", dir + "/.git/info/exclude")
        try repo.stageAll()
        #expect(try repo.stagedChanges().map(\.kind) == [.added, .added])
        let first = try repo.commitIndex(message: "first\n\nbody", fallbackName: "dev")
        #expect(first.summary == "first")
        #expect(try repo.head() == first)
        #expect(git(["ls-files"], in: dir) == "a.md\nb.md")

        try FileManager.default.moveItem(atPath: dir + "/a.md", toPath: dir + "/moved.md")
        write("one\ntwo\n", dir + "/b.md")
        write("new\n", dir + "/c.md")
        try repo.stageAll()
        let changes = try repo.stagedChanges()
        #expect(changes.contains(StagedChange(kind: .renamed, path: "moved.md", oldPath: "a.md")))
        #expect(changes.contains(StagedChange(kind: .edited, path: "b.md", oldPath: nil)))
        #expect(changes.contains(StagedChange(kind: .added, path: "c.md", oldPath: nil)))
        try repo.commitIndex(message: "second", fallbackName: "dev")
        #expect(git(["rev-list", "--count", "HEAD"], in: dir) == "2")
        #expect(git(["status", "--porcelain"], in: dir) == "")
        #expect(git(["fsck", "--no-progress"], in: dir).isEmpty)
    }

    @Test func ignoreRulesComeFromGit() throws {
        let dir = TempDir.make("git")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let repo = try Repository.create(workTree: dir)
        write("*.tmp\nbuild/\n", dir + "/.gitignore")
        #expect(try repo.isIgnored("x.tmp"))
        #expect(try repo.isIgnored("build/"))
        #expect(try !repo.isIgnored("note.md"))
    }

    @Test func stageMoveRecordsAGitMv() throws {
        let dir = TempDir.make("git")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let repo = try Repository.create(workTree: dir)
        write("text\n", dir + "/a.md")
        try repo.stageAll()
        try repo.commitIndex(message: "add", fallbackName: "dev")
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: dir + "/a.md", toPath: dir + "/sub/a.md")
        try repo.stageMove(from: "a.md", to: "sub/a.md")
        #expect(git(["status", "--porcelain"], in: dir) == "R  a.md -> sub/a.md")
    }
}

/// The crash seen when the background sync's tests ran beside others: every transfer set
/// libgit2's process-wide CA locations (GIT_SSL_CAINFO) before connecting, and two at once freed
/// each other's certificates inside mbedTLS (a crash in libmbedx509).
@Suite(.serialized) struct ConcurrentTransferTests {
    @Test func transfersStartingAtOnceWithACAFileSetDoNotFreeEachOthersCertificates() throws {
        let bundle = "/etc/ssl/certs/ca-certificates.crt"
        guard FileManager.default.fileExists(atPath: bundle) else { return }
        setenv("GIT_SSL_CAINFO", bundle, 1)
        let dir = TempDir.make("transfers")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for i in 0..<8 { _ = try Repository.create(workTree: dir + "/r\(i)") }
        let failures = ConcurrentFailures()
        // What each transfer does first (Repository.withRemote), from many threads at once.
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            do {
                let repo = try #require(try Repository.open(workTree: dir + "/r\(i)"))
                for _ in 0..<25 { try repo.trustConfiguredAuthorities() }
            } catch {
                failures.add("\(error)")
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all.prefix(3))")
    }

    /// Found by review: once one repository's transfer set its CA file (`http.sslCAInfo`), a later
    /// transfer of another repository with none configured, in the same process (`sheaf watch`:
    /// the vault and a share), still trusted only that file, and failed on a public host.
    /// (In this suite, beside the test above, which sets the process-wide locations too.)
    @Test func aRepositoryWithNoCAConfiguredGoesBackToTheSystemsAfterAnotherSetOne() throws {
        let bundle = "/etc/ssl/certs/ca-certificates.crt"
        guard FileManager.default.fileExists(atPath: bundle) else { return }
        let dir = TempDir.make("trust")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let privateCA = dir + "/private-ca.pem"
        try FileManager.default.copyItem(atPath: bundle, toPath: privateCA)
        let vault = try Repository.create(workTree: dir + "/vault")
        _ = runProcess("/usr/bin/git", ["config", "http.sslCAInfo", privateCA], in: dir + "/vault")
        let share = try Repository.create(workTree: dir + "/share")
        try vault.trustConfiguredAuthorities(environment: [:])
        #expect(TrustedAuthorities.locationsInForce?.file == privateCA)
        try share.trustConfiguredAuthorities(environment: [:])
        #expect(TrustedAuthorities.locationsInForce == nil)
    }
}

/// Which remotes libgit2 reaches over its http transport, the only one that reads a CA file.
@Suite struct HTTPTransportTests {
    @Test(arguments: [
        ("https://host/notes.git", true), ("HTTPS://host:8443/notes.git", true), ("http://host/notes.git", true),
        ("/srv/notes.git", false), ("file:///srv/notes.git", false), ("ssh://git@host/notes.git", false),
        ("git@host:https.git", false), ("https:notes.git", false), ("git://host/notes.git", false), ("", false),
    ])
    func onlyHTTPAndHTTPSRemotesUseTheHTTPTransport(_ url: String, _ http: Bool) {
        #expect(RemoteURL.isHTTP(url) == http)
    }
}

final class ConcurrentFailures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ s: String) { lock.lock(); list.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return list }
}

/// Regression (found in review): plain `git status`, which editors' git plugins run every few
/// seconds, holds `.git/index.lock` for a moment; a commit that met it failed with "the index is
/// locked", and the background sync reported a problem and backed off.
@Suite struct BriefIndexLockTests {
    @Test func aCommitWaitsOutAnotherGitsBriefHoldOnTheIndex() throws {
        let dir = TempDir.make("indexlock")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let repo = try Repository.create(workTree: dir)
        try "a\n".write(toFile: dir + "/a.md", atomically: true, encoding: .utf8)
        _ = try repo.stageAll()
        let lock = dir + "/.git/index.lock"
        _ = FileManager.default.createFile(atPath: lock, contents: Data())
        let released = Thread { usleep(300_000); unlink(lock) }
        released.start()
        let commit = try repo.commitIndex(message: "a", fallbackName: "test")
        #expect(!commit.id.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: lock))
    }
}
