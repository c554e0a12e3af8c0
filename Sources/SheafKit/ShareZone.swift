// A share as sync sees it: its own repository, kept in `.sheaf/shares/<id>.git` (never in the
// vault's tree, so nothing of it is synced or indexed), whose work tree is the share's folder (for
// a note share, the folder holding the note, of which the repository holds that one file). Paths
// of the share's repository are relative to that folder; the vault's are relative to its root.
import Foundation
import SheafCore
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
    func markJoined() { FileManager.default.createFile(atPath: joinedMarker, contents: Data()) }

    func open() throws(SheafError) -> Repository? {
        do { return try Repository.open(gitDirectory: gitDirectory, workTree: workTree) } catch {
            throw SheafError("cannot open the share's git repository", path: share.path, cause: error.description)
        }
    }

    func create() throws(SheafError) -> Repository {
        try? FileManager.default.removeItem(atPath: directory)  // what an interrupted join left
        do {
            try FileManager.default.createDirectory(atPath: workTree, withIntermediateDirectories: true)
            let repo = try Repository.create(gitDirectory: gitDirectory, workTree: workTree)
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
        return SyncScope(refusal: { path in
            share.admits(shareRelative: path) ? nil : "outside the shared note \(share.path)"
        })
    }

    /// Whether a path of the share's work tree (share-relative) is not the share's to commit.
    func excluded(_ path: String) -> Bool {
        VaultPathGuard.isReserved(path) || !share.admits(shareRelative: path)
    }
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

    func save(_ path: String) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? AtomicFile.write(String(decoding: data, as: UTF8.self), to: path)
    }
}
