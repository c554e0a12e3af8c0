// `sheaf log`, `sheaf show NOTE@REV` and `sheaf restore`: git history is the trash. A name is
// looked up as a note (or another file) in the vault first; a name that matches nothing there is
// taken as a vault path, so deleted notes can be named by the path they had. Restoring writes the
// file back and commits nothing: the next commit or sync records it. A note a joined share holds
// has its history in the share's repository (HistoryPlace): that comes first, then what the
// vault's recorded before it was shared; a revision is looked up in the same order.
import Foundation
import SheafCore
import SheafFiles
import SheafGit

/// One line of `sheaf log`.
public struct HistoryEntry: Sendable, Equatable {
    public let commit: HistoryCommit
    /// What the commit did to the note; nil in the vault's log.
    public let kind: ChangeKind?
    /// The note's path at the commit (the new path of a rename, the old path of a deletion).
    public let path: String?
    /// The path before a rename.
    public let oldPath: String?
}

/// `sheaf log [NOTE]`.
public struct History: Sendable {
    /// The note's path now, or the path a deleted note had; nil for the vault's log.
    public let path: String?
    /// Whether the note exists in the vault now.
    public let exists: Bool
    public let entries: [HistoryEntry]
}

/// A note as it was at a commit.
public struct NoteVersion: Sendable {
    public let bytes: [UInt8]
    /// The path it had at that commit.
    public let path: String
    public let commit: String
}

/// What `sheaf restore` wrote.
public struct RestoreReport: Sendable {
    /// Where the version was written.
    public let path: String
    public let version: NoteVersion
    /// Whether the file was absent before (a deleted note brought back).
    public let recreated: Bool
}

/// A commit as `log` lists it: id, time, author and summary line.
public struct HistoryCommit: Sendable, Equatable {
    public let id: String
    public let time: Date
    public let authorName: String
    public let summary: String

    init(_ commit: CommitDetails) {
        id = commit.id; time = commit.time; authorName = commit.authorName; summary = commit.summary
    }
}

/// What a history command names: an existing file (its path now), the path to follow from HEAD,
/// and the repositories recording it (`historyPlaces`), newest first.
struct HistoryTarget {
    let current: String?
    let committed: String
    let places: [HistoryPlace]
}

/// A repository that records a note's history, with how it names the vault's paths: a joined
/// share's (paths relative to the share's folder), or the vault's own.
struct HistoryPlace {
    let repo: Repository
    let share: Share?

    /// `path` (a vault path) as this repository names it; nil when it is not the share's.
    func repoPath(_ path: String) -> String? {
        guard let share else { return path }
        return share.holds(path) ? share.relative(path) : nil
    }

    /// A path of this repository as a vault path.
    func vaultPath(_ path: String) -> String { share?.vaultPath(path) ?? path }

    /// A path of this repository as a vault path a version may be read from and restored to:
    /// for a share, only one the share may hold (its history is synced content: a renamed
    /// note share's history must not name the note's neighbours), without `..`.
    func versionPath(_ path: String) -> String? {
        guard let share else { return path }
        guard share.admits(shareRelative: path), let inVault = VaultPath.normalize(share.vaultPath(path)), share.holds(inVault) else {
            return nil
        }
        return inVault
    }
}

extension VaultSession {
    /// The vault's first-parent log (`name` nil), or the commits that changed one note, following
    /// renames; newest first, at most `limit`.
    public func history(of name: String?, limit: Int? = nil) throws(SheafError) -> History {
        guard let name else {
            let commits = try gitStep("cannot read the history") { (repo) throws(GitError) in try repo.firstParentLog(limit: limit) }
            return History(path: nil, exists: false,
                           entries: commits.map { HistoryEntry(commit: HistoryCommit($0), kind: nil, path: nil, oldPath: nil) })
        }
        let target = try historyTarget(name)
        var entries: [HistoryEntry] = []
        for place in target.places {
            let left = limit.map { $0 - entries.count }
            guard let path = place.repoPath(target.committed), left.map({ $0 > 0 }) ?? true else { continue }
            let changes = try historyStep(place) { (repo) throws(GitError) in try repo.pathHistory(path, limit: left) }
            entries += changes.map {
                HistoryEntry(commit: HistoryCommit($0.commit), kind: ChangeKind($0.kind), path: place.vaultPath($0.path),
                             oldPath: $0.oldPath.map(place.vaultPath))
            }
        }
        if entries.isEmpty {
            throw SheafError("no commit holds this note yet", path: target.current ?? target.committed,
                             hint: "`sheaf commit` records it")
        }
        return History(path: target.current ?? target.committed, exists: target.current != nil, entries: entries)
    }

    /// Where the history of the vault path `path` is kept, newest first: the repository of the
    /// joined share holding it, then the vault's.
    func historyPlaces(of path: String) throws(SheafError) -> [HistoryPlace] {
        var places: [HistoryPlace] = []
        if let share = shareList().share(holding: path) {
            let zone = zone(share)
            if zone.isJoined, let repo = try zone.openForHistory() { places.append(HistoryPlace(repo: repo, share: share)) }
        }
        places.append(HistoryPlace(repo: try requireRepository(), share: nil))
        return places
    }

    /// `body` on a place's repository, its failure said as the history's.
    func historyStep<T>(_ place: HistoryPlace, _ body: (Repository) throws(GitError) -> T) throws(SheafError) -> T {
        do { return try body(place.repo) } catch {
            throw SheafError("cannot read the history", path: place.share?.path ?? vault.root, cause: error.description)
        }
    }

    /// Whether `revision` names a commit of a repository that holds the history of the note
    /// `name` names (a share's, or the vault's).
    func isRevision(_ revision: String, of name: String) -> Bool {
        guard !revision.isEmpty, let target = try? historyTarget(name) else { return isRevision(revision) }
        return target.places.contains { (try? $0.repo.resolveCommit(revision)) != nil }
    }

    /// Whether `revision` names a commit (`HEAD~1`, an id or prefix, a branch).
    public func isRevision(_ revision: String) -> Bool {
        guard !revision.isEmpty, let repo = try? repository() else { return false }
        return (try? repo.resolveCommit(revision)) != nil
    }

    /// The note `name` names as it was at `revision`, at the path it had then.
    public func version(of name: String, at revision: String) throws(SheafError) -> NoteVersion {
        try version(of: historyTarget(name), at: revision)
    }

    /// In the first place whose repository knows `revision`.
    private func version(of target: HistoryTarget, at revision: String) throws(SheafError) -> NoteVersion {
        for place in target.places where !revision.isEmpty {
            guard let path = place.repoPath(target.committed),
                  let commit = try historyStep(place, { (repo) throws(GitError) in try repo.resolveCommit(revision) }) else { continue }
            let found = try historyStep(place) { (repo) throws(GitError) -> NoteVersion? in
                let then = try repo.trackedPath(path, at: commit) ?? path
                guard let file = try repo.file(at: then, inCommit: commit), let shown = place.versionPath(then) else { return nil }
                return NoteVersion(bytes: try repo.blobBytes(file.blob), path: shown, commit: commit)
            }
            guard let found else {
                throw SheafError("the note did not exist at this revision", path: "\(target.current ?? target.committed)@\(revision)",
                                 hint: "`sheaf log NOTE` lists the commits that changed it")
            }
            return found
        }
        _ = try commit(forRevision: revision)  // says how to name a revision
        throw SheafError("unknown revision", path: revision, cause: "no commit of this note's history has this name",
                         hint: "`sheaf log NOTE` lists the commits that changed it")
    }

    /// Writes an earlier version of a note back: the one at `revision`, else the last one history
    /// holds (for a deleted note the version before the deletion; for an existing one the version
    /// at HEAD, undoing uncommitted edits). It goes to the note's path now, or for a deleted note
    /// to the path it had. Uncommitted changes are committed first, so nothing is lost; the
    /// restored version itself is not committed.
    public func restore(_ name: String, at revision: String?) throws(SheafError) -> RestoreReport {
        try withWriterLock { (proof) throws(SheafError) -> RestoreReport in
            let target = try historyTarget(name)
            let version: NoteVersion
            if let revision { version = try self.version(of: target, at: revision) } else { version = try lastVersion(of: target) }
            let destination = try safePath(target.current ?? version.path)
            // Uncommitted edits are recorded first (as `rm` does), so `log` shows them and a
            // second `restore` brings them back: restoring never discards an edit.
            try commitSnapshot(holding: destination.path, proof)
            let writer = fileWriter(proof)
            let current = try writer.read(destination, limit: .max)  // any file history holds, as large as it was
            let recreated = !current.exists
            try writer.replace(destination, base: current, with: version.bytes)
            try writer.finish()
            invalidate()
            return RestoreReport(path: destination.path, version: version, recreated: recreated)
        }
    }

    /// The newest version history holds: at HEAD, else the one before the commit that deleted it.
    private func lastVersion(of target: HistoryTarget) throws(SheafError) -> NoteVersion {
        var found: NoteVersion?
        for place in target.places where found == nil {
            guard let path = place.repoPath(target.committed) else { continue }
            found = try historyStep(place) { (repo) throws(GitError) -> NoteVersion? in
                if let head = try repo.head()?.id, let file = try repo.file(at: path, inCommit: head), let shown = place.versionPath(path) {
                    return NoteVersion(bytes: try repo.blobBytes(file.blob), path: shown, commit: head)
                }
                guard let last = try repo.pathHistory(path, limit: 1).first,
                      let parent = last.commit.parents.first else { return nil }
                let before = last.kind == .deleted ? last.path : (last.oldPath ?? last.path)
                guard let file = try repo.file(at: before, inCommit: parent), let shown = place.versionPath(before) else { return nil }
                return NoteVersion(bytes: try repo.blobBytes(file.blob), path: shown, commit: parent)
            }
        }
        guard let found else {
            throw SheafError("no commit holds this note yet", path: target.current ?? target.committed,
                             hint: "`sheaf commit` records a note; only committed versions can be restored")
        }
        return found
    }

    /// The commit a revision names, or an error saying how to name one.
    public func commit(forRevision revision: String) throws(SheafError) -> String {
        let id = revision.isEmpty ? nil : try gitStep("cannot read the revision") { (repo) throws(GitError) in
            try repo.resolveCommit(revision)
        }
        guard let id else {
            throw SheafError("unknown revision", path: revision, cause: "no commit, branch or tag has this name",
                             hint: "`sheaf log NOTE` lists commit ids; HEAD~1 is the commit before the last")
        }
        return id
    }

    /// Looks `name` up as a note, then as a file in the vault, then as a path history knows.
    func historyTarget(_ name: String) throws(SheafError) -> HistoryTarget {
        var current: String?
        do throws(SheafError) {
            current = try resolve(name).path
        } catch where error.kind == .noNoteMatches {
            let path = vaultPath(forArgument: name)
            var isDirectory: ObjCBool = false
            if let path, FileManager.default.fileExists(atPath: vault.absolute(path), isDirectory: &isDirectory), !isDirectory.boolValue {
                current = path
            } else {
                let candidates = path.map { VaultPath.isNote($0) ? [$0] : [$0, $0 + ".md"] } ?? []
                for candidate in candidates {
                    let places = try historyPlaces(of: candidate)
                    for place in places {
                        guard let path = place.repoPath(candidate) else { continue }
                        let known = try historyStep(place) { (repo) throws(GitError) in try !repo.pathHistory(path, limit: 1).isEmpty }
                        if known { return HistoryTarget(current: nil, committed: candidate, places: places) }
                    }
                }
                throw SheafError("no note has this name, now or in history", path: name,
                                 cause: "no note matches it, and no commit holds a file at this path",
                                 hint: "name a deleted note by the path it had (`sheaf log` lists the commits)")
            }
        }
        let now = current!
        // A note moved since the last commit is followed from the path HEAD has (in the
        // repository that records it now).
        let places = try historyPlaces(of: now)
        guard let place = places.first, let path = place.repoPath(now) else {
            return HistoryTarget(current: now, committed: now, places: places)
        }
        let committed = try historyStep(place) { (repo) throws(GitError) -> String in
            guard let head = try repo.head()?.id, try repo.file(at: path, inCommit: head) == nil else { return path }
            let moved = try repo.workTreeChanges().first { $0.kind == .renamed && PathBytes.same($0.path, path) }
            return moved?.oldPath ?? path
        }
        return HistoryTarget(current: now, committed: place.vaultPath(committed), places: places)
    }
}

/// What a note argument of `show` names: the note as it is, or `NOTE@REV`, an earlier version.
public enum NoteOrVersion: Sendable {
    case current(CatalogNote)
    case earlier(NoteVersion)
}

extension VaultSession {
    /// Looks `argument` up as a note; when no note matches and it reads `NOTE@REV` (the part
    /// after the last `@` names a commit), as that note's version at the revision. A known note
    /// with an unknown revision is reported as an unknown revision, not as "no note matches".
    public func resolveNoteOrVersion(_ argument: String) throws(SheafError) -> NoteOrVersion {
        do throws(SheafError) {
            return .current(try resolve(argument))
        } catch where error.kind == .noNoteMatches {
            guard let at = argument.lastIndex(of: "@") else { throw error }
            let (name, revision) = (String(argument[..<at]), String(argument[argument.index(after: at)...]))
            guard !name.isEmpty, !revision.isEmpty else { throw error }
            guard isRevision(revision, of: name) else {
                if (try? history(of: name, limit: 1)) != nil { _ = try commit(forRevision: revision) }
                throw error
            }
            return .earlier(try version(of: name, at: revision))
        }
    }
}
