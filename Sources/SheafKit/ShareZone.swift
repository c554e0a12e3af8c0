// A share as sync sees it: its own repository, kept in `.sheaf/shares/<id>.git` (never in the
// vault's tree, so nothing of it is synced or indexed), whose work tree is the share's folder (for
// a note share, the folder holding the note, of which the repository holds that one file). Paths
// of the share's repository are relative to that folder; the vault's are relative to its root.
import Foundation
import Glibc
import SheafCore
import SheafFiles
import SheafGit
import SheafSync

struct ShareZone {
    let share: Share
    let vault: Vault

    /// Where the share's repository and its state live: a name a person can read, made unique by
    /// a hash of the path.
    var directory: String {
        var slug = ""
        for scalar in share.path.unicodeScalars.prefix(40) {
            slug.unicodeScalars.append(scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) ? scalar : "-")
        }
        var sha = SHA1()
        sha.update(Array(share.path.utf8))
        let hash = String(SHA1.hex(sha.finish()).prefix(8))
        return vault.stateDirectory + "/shares/" + slug + "-" + hash
    }
    var gitDirectory: String { directory + "/repo.git" }
    var journal: String { directory + "/sync-journal" }
    var statePath: String { directory + "/state" }
    /// The share's work tree, absolute.
    var workTree: String { share.mount.isEmpty ? vault.root : vault.root + "/" + share.mount }

    /// Written once the share's repository holds the share (its first commit made, or its
    /// remote's taken): a repository without it is a join or share a killed process left half
    /// done, made again from the start (never committed from, which would start a history
    /// unrelated to the share's).
    var joinedMarker: String { directory + "/joined" }
    var isJoined: Bool { FileManager.default.fileExists(atPath: joinedMarker) }
    func markJoined() { _ = FileManager.default.createFile(atPath: joinedMarker, contents: Data()) }

    /// The share's folder (or its note's folder) must be a real folder of the vault: no `..`,
    /// `.git` or `.sheaf` on the way, no symlink on the way or at its end (a listed share is
    /// synced content: it must not make Sheaf read or write outside the vault).
    func checkPlace() throws(SheafError) {
        if !share.mount.isEmpty {
            if case .failure(let refusal) = VaultPathGuard.check(share.mount + "/x", in: vault.root) {
                throw SheafError("the share's folder is not a safe place", path: share.mount, cause: refusal.description)
            }
            var info = stat()
            if lstat(workTree, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
                throw SheafError("the share's folder is a symlink or a file", path: share.mount,
                                 hint: "a share lives in a real folder of the vault")
            }
        }
        if share.isNote {
            var info = stat()
            if lstat(vault.absolute(share.path), &info) == 0, info.st_mode & S_IFMT != S_IFREG {
                throw SheafError("the shared note is not a plain file", path: share.path)
            }
        }
    }

    func open() throws(SheafError) -> Repository? {
        do { return try Repository.open(gitDirectory: gitDirectory, workTree: workTree) } catch {
            throw SheafError("cannot open the share's git repository", path: share.path, cause: error.description)
        }
    }

    /// The share's repository to read history from: with its work tree, or without one when the
    /// share's folder is gone (its history is what brings a file back).
    func openForHistory() throws(SheafError) -> Repository? {
        do {
            let folder = FileManager.default.fileExists(atPath: workTree) ? workTree : nil
            return try Repository.open(gitDirectory: gitDirectory, workTree: folder)
        } catch {
            throw SheafError("cannot open the share's git repository", path: share.path, cause: error.description)
        }
    }

    func create() throws(SheafError) -> Repository {
        try? FileManager.default.removeItem(atPath: directory)  // what an interrupted join left
        try checkPlace()
        do {
            try FileManager.default.createDirectory(atPath: workTree, withIntermediateDirectories: true)
            let repo = try Repository.create(gitDirectory: gitDirectory, workTree: workTree)
            try AtomicFile.write(share.path + "\n", to: directory + "/path")
            try repo.addRemote(name: "origin", url: share.remote)
            return repo
        } catch let error as GitError {
            throw SheafError("cannot create the share's git repository", path: share.path, cause: error.description)
        } catch {
            throw SheafError("cannot create the share's folder", path: share.mount, cause: "\(error)")
        }
    }

    /// What the share's remote may write, and what its files are.
    var scope: SyncScope {
        let share = share
        guard share.isNote else { return SyncScope() }
        return SyncScope(refusal: { path in
            share.admits(shareRelative: path) ? nil : "outside the shared note \(share.path)"
        })
    }

    /// Whether a path of the share's work tree (share-relative) is not the share's to commit:
    /// reserved, outside a note share, or ignored by the vault's rules (`.gitignore`,
    /// `.git/info/exclude`: what the vault keeps out of git, a share keeps out too).
    func excluded(_ path: String) -> Bool {
        if VaultPathGuard.isReserved(path) || !share.admits(shareRelative: path) { return true }
        return (try? vaultRepository?.isIgnored(share.vaultPath(path))) ?? false
    }

    /// The vault's repository, for its ignore rules.
    var vaultRepository: Repository?
}

/// What `sheaf shares` keeps about each share between runs, in `.sheaf/shares/<id>/state`.
struct ShareRecord: Codable {
    var lastSync: Date?
    var readOnly = false
    var lastError: String?
    /// The device was told its edits stay here (a read-only share), once.
    var toldReadOnly = false

    static func load(_ path: String) -> ShareRecord {
        guard let data = FileManager.default.contents(atPath: path),
              let record = try? JSONDecoder().decode(ShareRecord.self, from: data) else { return ShareRecord() }
        return record
    }

    /// Written whole (never torn) but not synced to the disk: a record lost to a power cut only
    /// forgets when the share last synced, and 120 shares would wait for 120 syncs to the disk.
    func save(_ path: String) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        if FileManager.default.contents(atPath: path) == data { return }
        try? AtomicFile.write(Array(data), to: path, durable: false)
    }
}
