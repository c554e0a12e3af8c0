// Sync as a tree of tokens: every share the vault lists syncs with its own remote (its own
// commit, fetch, merge, push, conflict files inside the share), fetched in parallel a few at a
// time, and one share that fails never holds back the others or the vault. Shares go first, so a
// share's last changes are on disk before the vault's pull (which may unshare it); shares the
// pull newly lists are joined after it (the hand-over, see `joinListed`).
import Foundation
import SheafCore
import SheafFiles
import SheafGit
import SheafSync

/// What one share's sync did.
public struct ShareRun: Sendable {
    public let path: String
    public var committed: VaultCommit?
    /// The pull, in vault paths.
    public var pull: PullReport?
    public var push: PushResult?
    /// Why this share's sync stopped (the others and the vault went on).
    public var error: SheafError?
    /// The share's remote refused the push: the local commits stay here.
    public var readOnly = false
    /// Said once per read-only share: "read-only share: your edits stay here".
    public var toldReadOnly = false
    /// This sync joined the share (a device that learnt of it through the vault).
    public var joined = false
    /// The vault's commit `unshare` made.
    public var vaultCommit: VaultCommit?

    public init(path: String) { self.path = path }
}

enum ShareSyncMode { case pull, push, sync }

extension VaultSession {
    /// How many shares fetch at once.
    static let shareFetchSlots = 8

    /// Syncs every share `list` holds that this device has joined. Errors are per share.
    func syncShares(_ list: ShareList, options: SyncOptions, mode: ShareSyncMode) -> [ShareRun] {
        let zones = list.shares.map(zone).filter(\.isJoined)
        guard !zones.isEmpty else { return [] }
        let slots = DispatchSemaphore(value: Self.shareFetchSlots)
        // Every fetch starts now, on its own thread, a few at a time; each merge waits for its own.
        var fetches: [PendingFetch?] = []
        for zone in zones {
            if mode != .push, let failed = options.failedShareFetches[zone.share.path] { fetches.append(failed); continue }
            guard mode != .push, let repo = try? zone.open() else { fetches.append(nil); continue }
            fetches.append(try? Syncer(repository: repo, workTree: zone.workTree, journal: zone.journal, device: device,
                                       remote: "origin", transfer: options.transfer).startFetch(slots: slots))
        }
        var runs: [ShareRun] = []
        for (zone, fetched) in zip(zones, fetches) {
            do {
                runs.append(try syncShare(zone, options: options, mode: mode, fetched: fetched, base: nil))
            } catch {
                var run = ShareRun(path: zone.share.path)
                run.error = error
                var record = ShareRecord.load(zone.statePath)
                record.lastError = (error.kind == .offline ? "offline: " : "") + Self.summary(error)
                record.save(zone.statePath)
                runs.append(run)
            }
            _ = fetched?.wait()
        }
        return runs
    }

    /// Starts fetching every joined share without the lock (the background sync's network step,
    /// as for the vault: a fetch touches only the share's packs and tracking ref). `failed` waits
    /// for them and keeps those that failed, for the sync under the lock (`failedShareFetches`):
    /// a silent or unreachable share host then holds up no other command.
    func startShareFetchesWithoutLock(_ options: SyncOptions) -> (@Sendable () -> [String: PendingFetch]) {
        let slots = DispatchSemaphore(value: Self.shareFetchSlots)
        var started: [(String, PendingFetch)] = []
        for share in shareList().shares {
            let zone = zone(share)
            guard zone.isJoined, (try? zone.checkPlace()) != nil, let repo = try? zone.open(),
                  let fetch = try? Syncer(repository: repo, workTree: zone.workTree, journal: zone.journal, device: device,
                                          remote: "origin", transfer: options.transfer).startFetch(slots: slots) else { continue }
            started.append((share.path, fetch))
        }
        let fetches = started
        return {
            var failed: [String: PendingFetch] = [:]
            for (path, fetch) in fetches { if case .failure = fetch.wait() { failed[path] = fetch } }
            return failed
        }
    }

    /// One share's commit, pull and push. With `base` (a commit of the vault's repository), the
    /// share is being joined on a device that had its files through the vault: see `joinListed`.
    func syncShare(_ zone: ShareZone, options: SyncOptions, mode: ShareSyncMode, fetched: PendingFetch?,
                   base: [TreeEntry]?) throws(SheafError) -> ShareRun {
        if !FileManager.default.fileExists(atPath: zone.workTree) { throw gone(zone.share) }
        try zone.checkPlace()
        guard let repo = try zone.open() else {
            throw SheafError("the share's repository is gone", path: zone.share.path, hint: "run `sheaf sync` to join it again")
        }
        // As for the vault's repository: the lock files a killed Sheaf left in the share's git
        // folder are removed, other ones reported (VaultSession+WriterLock).
        let session = zone.directory + "/git-session"
        let locks = repo.beginLockSession(record: session)
        defer { repo.endLockSession(record: session) }
        if let held = locks.held.first {
            throw SheafError("the share's git repository is locked", path: held.path,
                             cause: "another git command is writing there, or one was killed",
                             hint: "let that git command finish and run this again; if none is running, delete the file")
        }
        var run = ShareRun(path: zone.share.path)
        if let actual = (try? repo.remoteURL("origin")) ?? nil, actual != zone.share.remote {
            // A share's remote changes only by leaving and joining again: a list that names another
            // (a hostile vault remote's edit) must not send the share's notes elsewhere.
            emit(.warning(VaultWarning(path: zone.share.path, message: "the vault's list gives this share another remote ("
                + RemoteURL.redacted(zone.share.remote) + "); it still syncs with " + RemoteURL.redacted(actual)
                + "; to change it, `sheaf leave` and `sheaf join` again")))
        }
        if FileManager.default.fileExists(atPath: zone.journal) {
            do { _ = try WorkTreeUpdate(repository: repo, workTree: zone.workTree, journal: zone.journal).resume() } catch {
                throw SheafError("cannot finish the share's interrupted sync", path: zone.share.path, cause: "\(error)",
                                 hint: "nothing is lost: the merged commit is in git; run `sheaf sync` again")
            }
        }
        if let base { try startFromVault(zone, repo, base: base, transfer: options.transfer) }
        if (try? repo.head()) != nil, !FileManager.default.fileExists(atPath: vault.absolute(zone.share.path)) {
            throw gone(zone.share)
        }
        var syncer = Syncer(repository: repo, workTree: zone.workTree, journal: zone.journal, device: device,
                            remote: "origin", transfer: options.transfer)
        syncer.scope = zone.scope
        var record = ShareRecord.load(zone.statePath)
        // A repository with no commit yet (a join) takes the remote's first: committing the files
        // first would start a history unrelated to the share's.
        let unborn = (try? repo.head()) == nil
        do throws(SyncError) {
            if unborn {
                let pulled = try syncer.pull(fetched)
                run.pull = PullReport(pulled).rerooted(zone.share)
            }
        } catch {
            record.lastError = (error.isOffline ? "offline: " : "") + Self.summary(describe(error))
            record.save(zone.statePath)
            throw describe(error)
        }
        if unborn && run.pull?.kind == .remoteEmpty {
            // Committing the files now would start a history of this device's own, which the
            // owner's first push could never join.
            throw SheafError("the share's remote holds nothing yet", path: RemoteURL.redacted(zone.share.remote),
                             hint: "ask its owner to run `sheaf sync`; it is joined then")
        }
        run.committed = try commitWorkTree(repo, root: zone.workTree, excluding: zone.excluded, scoped: zone.share.isNote,
                                           settledFor: options.settledFor)
        do throws(SyncError) {
            if mode != .push && !unborn {
                let pulled = try syncer.pull(fetched)
                run.pull = PullReport(pulled).rerooted(zone.share)
            }
            if mode != .pull {
                do throws(SyncError) {
                    run.push = try push(syncer)
                    record.readOnly = false
                    record.toldReadOnly = false
                } catch {
                    if error.isRejection {
                        let (pull, push) = try syncer.sync()
                        run.pull = PullReport(pull).rerooted(zone.share)
                        run.push = PushResult(pushed: push.pushed, head: push.head)
                    } else {
                        // Fetched a moment ago, refused now: a remote this device may read, not write.
                        // (An https host's 403 reads as a network failure in libgit2: after a fetch that
                        // worked, it is the refusal; without one, only an authentication failure is.)
                        switch error {
                        case .transfer(_, _, let failure, _) where failure != .notFound && (run.pull != nil || failure == .authentication): break
                        case .unreachable where run.pull != nil: break
                        default: throw error
                        }
                        run.readOnly = true
                        run.toldReadOnly = !record.toldReadOnly
                        record.readOnly = true
                        record.toldReadOnly = true
                    }
                }
            }
        } catch {
            record.lastError = (error.isOffline ? "offline: " : "") + Self.summary(describe(error))
            record.save(zone.statePath)
            throw describe(error)
        }
        record.lastSync = Date()
        record.lastError = nil
        record.save(zone.statePath)
        if run.committed != nil || run.pull.map({ $0.kind == .fastForward || $0.kind == .merged }) == true {
            try objectsWereAdded(to: repo)  // VaultSession+Housekeeping
        }
        return run
    }

    /// A shared folder or note that is gone (renamed by a file manager, deleted) would commit as
    /// deleting the share for everyone in it: the share waits until it is back.
    private func gone(_ share: Share) -> SheafError {
        SheafError("the shared \(share.isNote ? "note" : "folder") is gone", path: share.path,
                   cause: "syncing now would delete it for everyone in the share",
                   hint: "put it back (or move a note with `sheaf mv`), or stop sharing it with `sheaf unshare \(share.path)`")
    }

    private func push(_ syncer: Syncer) throws(SyncError) -> PushResult {
        let pushed = try syncer.push()
        return PushResult(pushed: pushed.pushed, head: pushed.head)
    }

    /// A device that had a share's files through the vault joins the share: the share's
    /// repository starts at a commit of those files as the vault last synced them (`base`), so
    /// the move to the share's own commit writes only what others changed there, merges what
    /// this device changed, and deletes only files left as they were. Nothing is deleted that
    /// was edited here; nothing is written over an edit.
    private func startFromVault(_ zone: ShareZone, _ repo: Repository, base: [TreeEntry], transfer: TransferOptions) throws(SheafError) {
        do {
            guard try repo.head() == nil, let vaultRepo = try repository() else { return }
            var entries: [TreeEntry] = []
            for entry in base {
                guard let path = entry.text, zone.share.holds(path) else { continue }
                let blob = try repo.createBlob(try vaultRepo.blobBytes(entry.file.blob))
                entries.append(TreeEntry(path: Array(zone.share.relative(path).utf8), file: TreeFile(blob: blob, mode: entry.file.mode)))
            }
            guard !entries.isEmpty else { return }
            let tree = try repo.tree(from: entries).tree
            let commit = try repo.createCommit(tree: tree, parents: [], message: CommitMessage.handedOverBase(device: device),
                                               fallbackName: device)
            try repo.setReference("refs/heads/main", to: commit, message: "sheaf: the share's files as the vault had them")
            try repo.resetIndex(toCommit: commit, refreshing: [])
            // Through the sync's fetch, so that an unknown host key, a refusal or an unreachable
            // host reads as it does for every other fetch (and offline exits 75).
            let syncer = Syncer(repository: repo, workTree: zone.workTree, journal: zone.journal, device: device,
                                remote: "origin", transfer: transfer)
            let fetched: String?
            do throws(SyncError) { fetched = try syncer.fetchOnly() } catch { throw describe(error) }
            guard let fetched else {
                throw SheafError("the share's remote holds nothing yet", path: zone.share.path,
                                 hint: "this device joins it on a later sync, once its owner's first push is there")
            }
            try WorkTreeUpdate(repository: repo, workTree: zone.workTree, journal: zone.journal).run(from: commit, to: fetched)
        } catch let error as SheafError {
            throw error
        } catch {
            throw SheafError("cannot join the share", path: zone.share.path, cause: "\(error)")
        }
    }

    /// Shares the list holds that this device has not joined: each is joined now, starting from
    /// the files as the vault's commit `base` held them (the hand-over), or, when it held none,
    /// as a new folder. Their files were never deleted here. A share on a host this device does
    /// not sync with waits (`trustedShareHosts`) until `sheaf join` names it (`approving`: that
    /// share alone is joined).
    func joinListed(_ list: ShareList, base: String?, options: SyncOptions, approving: String? = nil) -> [ShareRun] {
        let waiting = list.shares.map(zone).filter { !$0.isJoined }
        guard !waiting.isEmpty else { return [] }
        var entriesOf: [String: [TreeEntry]] = [:]
        var runs: [ShareRun] = []
        let trusted = approving == nil ? trustedShareHosts(list) : []
        for zone in waiting {
            // The first base seen is kept until the join succeeds: a join that fails (offline)
            // and is tried by a later sync still starts from where this device last had the files.
            let baseFile = zone.directory + ".join-base"
            var start = (try? String(contentsOfFile: baseFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            if start == nil || start == "", let base {
                start = base
                try? AtomicFile.write(base + "\n", to: baseFile)
            }
            if let approving {
                guard zone.share.path == approving else { continue }
            } else if needsApproval(zone.share, trusted: trusted) {
                emit(.warning(VaultWarning(path: zone.share.path, message:
                    "the vault lists a share on \(RemoteURL.host(zone.share.remote).map { $0.isEmpty ? "this machine" : $0 } ?? "an unknown host"), "
                    + "a host this device does not sync with: not joined; to join it: "
                    + "sheaf join \(ShellWord.quoted(RemoteURL.redacted(zone.share.remote))) \(ShellWord.quoted(zone.share.path))")))
                continue
            }
            var entries: [TreeEntry] = []
            if let start, !start.isEmpty {
                if entriesOf[start] == nil { entriesOf[start] = (try? repository()?.treeEntries(inCommit: start)) ?? [] }
                entries = entriesOf[start] ?? []
            }
            var run: ShareRun
            do {
                _ = try zone.create()
                run = try syncShare(zone, options: options, mode: .sync, fetched: nil, base: entries)
                zone.markJoined()
                try? FileManager.default.removeItem(atPath: baseFile)
                run.joined = true
            } catch {
                try? FileManager.default.removeItem(atPath: zone.directory)  // joined again by the next sync
                run = ShareRun(path: zone.share.path)
                run.error = error
            }
            runs.append(run)
        }
        return runs
    }

    /// The uncommitted changes of every joined share, as vault paths.
    func shareChanges(_ list: ShareList) -> [VaultChange] {
        var changes: [VaultChange] = []
        for share in list.shares {
            let zone = zone(share)
            guard zone.isJoined, let repo = try? zone.open(), let status = try? repo.workTreeStatus() else { continue }
            for change in status.changes where !zone.excluded(change.path) {
                changes.append(VaultChange(kind: ChangeKind(change.kind), path: share.vaultPath(change.path),
                                           oldPath: change.oldPath.map(share.vaultPath)))
            }
        }
        return changes
    }

    /// Shares this device syncs that the list no longer holds (unshared or left on another
    /// device): their repositories go. A file of one that the vault's repository does not hold
    /// and that is as the share's last commit has it is set aside, out of the vault's tree, at
    /// its path under `.sheaf/unshared/STAMP/` (a line a hostile vault remote removed must not hand a
    /// share's files to the vault's repository); an edited one stays, as the vault's. Set aside,
    /// not deleted: a note this device added to the share after the unsharing device last
    /// fetched it is in the share's last commit and in no commit of the vault (regression: it
    /// was deleted, and only the share's remote, which no one syncs any more, still held it).
    /// Returns a warning for each share whose files were set aside.
    func dropUnlisted(_ list: ShareList) -> [VaultWarning] {
        let folder = vault.stateDirectory + "/shares"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        let kept = Set(list.shares.flatMap { share -> [String] in
            let name = (zone(share).directory as NSString).lastPathComponent
            return [name, name + ".join-base"]
        })
        let vaultHead = (try? repository()?.head()?.id) ?? nil
        var warnings: [VaultWarning] = []
        for name in names where !kept.contains(name) {
            defer { try? FileManager.default.removeItem(atPath: folder + "/" + name) }
            guard let path = (try? String(contentsOfFile: folder + "/" + name + "/path", encoding: .utf8))?
                    .trimmingCharacters(in: .newlines), !path.isEmpty else { continue }
            let zone = zone(Share(path: path, remote: ""))
            guard zone.isJoined, (try? zone.checkPlace()) != nil, let repo = try? zone.open(),
                  let head = (try? repo.head()?.id) ?? nil, let files = try? repo.files(inCommit: head),
                  let vaultRepo = try? repository() else { continue }
            let aside = vault.stateDirectory + "/unshared/" + ConflictName.stamp(secondsSince1970: Int(time(nil)))
            var setAside = 0
            for (relative, file) in files where zone.share.admits(shareRelative: relative) && !file.isSymlink {
                let inVault = zone.share.vaultPath(relative)
                if let vaultHead, (try? vaultRepo.file(at: inVault, inCommit: vaultHead)) ?? nil != nil { continue }
                let full = zone.workTree + "/" + relative
                guard (try? Repository.blobID(ofFile: full)) == file.blob else { continue }
                // At its vault path under the stamp (two shares' files never meet), never over a
                // file there (link fails on one): a file that cannot be set aside stays, as the vault's.
                let target = aside + "/" + inVault
                guard (try? FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                                 withIntermediateDirectories: true)) != nil,
                      link(full, target) == 0 else { continue }
                unlink(full)
                setAside += 1
            }
            if setAside > 0 {
                warnings.append(VaultWarning(path: path, message: "this share is no longer in the vault's list (unshared or left on another device); "
                    + "\(setAside) of its files that the vault does not hold were set aside in "
                    + "\(vault.relative(aside) ?? aside): move back what you want to keep (the vault's next commit takes it, for its remote)"))
            }
        }
        return warnings
    }
}

extension SyncError {
    var isOffline: Bool {
        if case .unreachable = self { return true }
        return false
    }
}

extension PullReport {
    /// The report of a share's pull with vault paths; its change set asks the index to look at
    /// each path again (renames as two paths).
    func rerooted(_ share: Share) -> PullReport {
        var report = self
        let vaultPath = share.vaultPath
        report.outcomes = outcomes.map { o in
            VaultChange(kind: o.kind, path: vaultPath(o.path), oldPath: o.oldPath.map(vaultPath), conflictFile: o.conflictFile.map(vaultPath))
        }
        report.keptLocalEdits = keptLocalEdits.map(vaultPath)
        report.refused = refused.map { RefusedPath(path: vaultPath($0.path), reason: $0.reason) }
        report.gitlinks = gitlinks.map(vaultPath)
        var changes = VaultChangeSet()
        for key in self.changes.paths { changes.recheck(vaultPath(key.path)) }
        report.changes = changes
        return report
    }
}
