// The sync commands as the application runs them: take `.sheaf/lock`, finish an update a killed
// process left behind, commit local changes, then pull, push or both through SheafSync, and bring
// the index up to date with what the pull wrote. Errors become SheafErrors that say what to do,
// with exit code 75 when the remote cannot be reached (local commits are kept).
import Foundation
import SheafCore
import SheafFiles
import SheafGit
import SheafIndex
import SheafSync

/// Options of pull, push and sync.
public struct SyncOptions: Sendable {
    public var remote: String?
    public var acceptNewHost = false
    public var allowUnrelated = false
    public var progress: (@Sendable (SyncProgress) -> Void)?
    /// An https credential for this command only (`clone` takes it from the URL), and the user
    /// name to ask git's credential helpers about.
    public var credential: RemoteCredential?
    public var user: String?
    /// Seconds every file the sync would commit must have been left alone (`.unsettled` else;
    /// `sheaf watch` passes its quiet period).
    public var settledFor: Double?
    /// Shares whose fetch without the lock failed (`fetchSharesWithoutLock`): the sync under the
    /// lock takes that outcome instead of waiting on their remote again while it holds the lock.
    var failedShareFetches: [String: PendingFetch] = [:]
    public init() {}

    /// The transfer's settings as SheafGit takes them.
    var transfer: TransferOptions {
        var transfer = TransferOptions(acceptNewHost: acceptNewHost)
        if let progress {
            transfer.progress = { (p: TransferProgress) in progress(SyncProgress(done: p.done, total: p.total, bytes: p.bytes)) }
        }
        transfer.credential = credential.map { HTTPCredential(user: $0.user, password: $0.password) }
        transfer.user = user
        return transfer
    }
}

/// A commit Sheaf made: its id and summary line.
public struct VaultCommit: Sendable, Equatable {
    public let id: String
    public let summary: String
}

/// How far a fetch, push or clone has come: objects done of total, and bytes moved.
public struct SyncProgress: Sendable, Equatable {
    public let done: Int
    public let total: Int
    public let bytes: Int
}

/// A user name and password (or token) for an https remote.
public struct RemoteCredential: Sendable, Equatable {
    public let user: String
    public let password: String
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}

/// What a push did: how many commits it sent, and the remote branch's commit after it.
public struct PushResult: Sendable, Equatable {
    public let pushed: Int
    public let head: String?
}

/// What a sync command did, for the report.
public struct SyncRun: Sendable {
    public var committed: VaultCommit?
    public var pull: PullReport?
    public var push: PushResult?
    public var remote: String
    /// Whether an interrupted earlier update was completed first.
    public var resumed = false
    /// Thumbnails made for the attachments the pull brought.
    public var thumbnails: ThumbnailReport?
    /// The vault paths the pull added, changed, removed or moved (empty when it wrote nothing).
    public var changes = VaultChangeSet()
    /// What updating the index from `changes` did (nil when it was not updated).
    public var indexed: ScanReport?
    /// Steps after the pull that failed without undoing it (the index or the thumbnails could
    /// not be updated): the pull itself is complete; each says what to run.
    public var warnings: [VaultWarning] = []
    /// Conflict files another device wrote that this pull brought (the device that pushed first
    /// learns of the conflict here): each with the note it belongs to.
    public var arrivedConflicts: [ConflictEntry] = []
    /// What each share's sync did (docs/sharing.md): shares sync each with its own remote.
    public var shares: [ShareRun] = []
}

extension VaultSession {
    /// The journal of a work-tree update in progress (see WorkTreeUpdate).
    var syncJournal: String { vault.stateDirectory + "/sync-journal" }

    /// `sheaf commit`: records every change git sees as one commit.
    public func commit(settledFor: Double? = nil) throws(SheafError) -> VaultCommit? {
        try withWriterLock { (proof) throws(SheafError) in
            _ = try resumeInterruptedUpdate()
            let committed = try commitSnapshot(proof, settledFor: settledFor)
            if committed != nil { try objectsWereAdded() }  // VaultSession+Housekeeping
            return committed
        }
    }

    public func pull(_ options: SyncOptions) throws(SheafError) -> SyncRun {
        try runSync(options, fetchFirst: true, mode: .pull) { (syncer, fetched, handOver) throws(SyncError) in
            let pull = try syncer.pull(fetched)
            handOver()
            return (pull, nil)
        }
    }

    public func push(_ options: SyncOptions) throws(SheafError) -> SyncRun {
        try runSync(options, fetchFirst: false, mode: .push) { (syncer, _, _) throws(SyncError) in (nil, try syncer.push()) }
    }

    public func sync(_ options: SyncOptions) throws(SheafError) -> SyncRun {
        try runSync(options, fetchFirst: true, mode: .sync) { (syncer, fetched, handOver) throws(SyncError) in
            let (pull, push) = try syncer.sync(fetched, beforePush: handOver)
            return (pull, push)
        }
    }

    /// With `fetchFirst`, the fetch of the pull starts before the local changes are committed
    /// and runs while they are (PendingFetch); the merge waits for both.
    /// Shares sync first, each with its own remote (VaultSession+ShareSync), then the vault; the
    /// vault's pull keeps on disk every file a share holds (listed here or in the remote's
    /// commit), commits their hand-over before it pushes, and shares it newly lists are joined.
    private func runSync(_ options: SyncOptions, fetchFirst: Bool, mode: ShareSyncMode,
                         _ body: (Syncer, PendingFetch?, () -> Void) throws(SyncError) -> (SheafSync.PullReport?, SheafSync.PushReport?)) throws(SheafError) -> SyncRun {
        try withWriterLock { (proof) throws(SheafError) -> SyncRun in
            let repo = try requireRepository()
            let remote = options.remote ?? config["remote"] ?? "origin"
            var run = SyncRun(remote: remote)
            run.resumed = try resumeInterruptedUpdate()
            let listed = shareList(warn: true)
            run.shares = syncShares(listed, options: options, mode: mode)
            var syncer = Syncer(repository: repo, workTree: vault.root, journal: syncJournal, device: device,
                                remote: remote, transfer: options.transfer)
            syncer.allowUnrelated = options.allowUnrelated
            let early = IndexWhileWriting { [self] in
                guard let index = try? writableIndex(), let walker = try? walker(forIndex: true, ownRepository: true, warn: false) else { return nil }
                return (index, walker)
            }
            defer { _ = early.finish() }  // its thread never outlives the writer lock
            syncer.onWritten = { early.wrote($0) }
            // When the fetch cannot start (no such remote, a detached HEAD), the local changes are
            // committed first and the pull reports the error, as without the overlap.
            let fetched = fetchFirst ? try? syncer.startFetch() : nil
            defer { _ = fetched?.wait() }  // the fetch never outlives the writer lock
            run.committed = try commitSnapshot(proof, settledFor: options.settledFor)
            let remoteCommit = (try? fetched?.wait().get()) ?? nil
            let incoming = shareList(inCommit: remoteCommit, repo)
            if !listed.shares.isEmpty || !incoming.shares.isEmpty {
                // Regression: the vault's remote could write into a share's folder, and the next
                // sync committed and pushed that to the share's remote, as this device. A share
                // the list holds before and after the pull is its own remote's to write; one the
                // remote's list lets go of (unshared) comes back through the vault's tree.
                syncer.scope = SyncScope(
                    refusal: { path in
                        guard let share = listed.share(holding: path), incoming.share(holding: path) != nil else { return nil }
                        return "inside the share \(share.path), which only its own remote writes"
                    },
                    keepOnDisk: { path in listed.share(holding: path) != nil || incoming.share(holding: path) != nil },
                    localCommitHoldsNoRefusedPath: true)
            }
            // Where this device last met the remote: what the files of a share it joins now were.
            let joinBase = try? remoteCommit.flatMap { (theirs) throws(GitError) in
                try repo.head().flatMap { (head) throws(GitError) in try repo.mergeBases(head.id, theirs).first }
            }
            // Shares the remote's list adds: where this device last had their files is kept now,
            // before the pull (a pull or push that fails, or a kill, must not lose it).
            for share in incoming.shares where listed.share(at: share.path) == nil {
                let file = zone(share).directory + ".join-base"
                if let base = joinBase ?? nil, !FileManager.default.fileExists(atPath: file) {
                    try? FileManager.default.createDirectory(atPath: vault.stateDirectory + "/shares", withIntermediateDirectories: true)
                    try? AtomicFile.write(base + "\n", to: file)
                }
            }
            var handOverError: SheafError?
            let handOver = { () -> Void in
                do throws(SheafError) { _ = try self.handOverSharedPaths(self.shareList()) } catch { handOverError = error }
            }
            do {
                let (pull, push) = try body(syncer, fetched, handOver)
                if let handOverError { throw handOverError }
                run.pull = pull.map(PullReport.init)
                run.push = push.map { PushResult(pushed: $0.pushed, head: $0.head) }
            } catch SyncError.noRemote where !run.shares.isEmpty || !shareList().shares.isEmpty {
                // A vault that only takes part in shares has no remote of its own.
                handOver()
            } catch let error as SyncError {
                throw describe(error)
            } catch let error as SheafError {
                throw error
            } catch {
                throw SheafError("sync failed", path: vault.root, cause: "\(error)")
            }
            if mode != .push {
                let list = shareList()
                // Files the vault's tree handed to a share were not deleted: not said as removed.
                run.pull?.outcomes.removeAll { $0.kind == .removed && list.share(holding: $0.path) != nil }
                run.shares += joinListed(list, base: joinBase ?? nil, options: options)
                run.warnings += dropUnlisted(list)
            }
            var changes = run.pull?.changes ?? VaultChangeSet()
            for share in run.shares { if let pulled = share.pull?.changes { changes = changes.followed(by: pulled) } }
            let earlyPass = early.finish()
            if !changes.isEmpty {
                run.changes = changes
                run.arrivedConflicts = arrivedConflicts((run.pull?.outcomes ?? []) + run.shares.flatMap { $0.pull?.outcomes ?? [] })
            }
            if !changes.isEmpty || earlyPass != nil { updateIndex(after: changes, into: &run, early: earlyPass) }
            // New objects (a commit, a fetched pack): let git gather them when due (VaultSession+Housekeeping).
            if run.committed != nil || run.pull.map({ $0.kind == .fastForward || $0.kind == .merged }) == true {
                try objectsWereAdded()
            }
            return run
        }
    }

    /// Fetches the remote's branch without the writer lock and without touching the vault
    /// (`Syncer.fetchOnly`): what the background sync asks first, so that a remote that cannot
    /// be reached, or answers nothing until the transfer's time limit, is found out while every
    /// other command (and the watcher's index updates) goes on. Throws as `sync` would
    /// (`.offline` for an unreachable remote).
    public func fetchWithoutLock(_ options: SyncOptions) throws(SheafError) {
        let repo = try requireRepository()
        let remote = options.remote ?? config["remote"] ?? "origin"
        let syncer = Syncer(repository: repo, workTree: vault.root, journal: syncJournal, device: device,
                            remote: remote, transfer: options.transfer)
        do { try syncer.fetchOnly() } catch { throw describe(error) }
    }

    /// The index learns exactly the paths the pull wrote (no walk of the vault: the change set
    /// names them), then the attachments among them get their thumbnails. The pull is complete
    /// by now, so a failure here does not fail the command: it becomes a warning saying what
    /// to run, never silence.
    /// `early`: the index, report and paths of the pass that read the files while they were
    /// written (IndexWhileWriting), which this completes: a path it read that `changes` does not
    /// name (written by a first pull, gone after a second) is looked at again.
    func updateIndex(after changes: VaultChangeSet, into run: inout SyncRun,
                     early: (index: NoteIndex, report: SheafIndex.ScanReport?, read: [String])? = nil) {
        invalidate()
        let index: NoteIndex
        do throws(SheafError) {
            var toApply = changes
            if let early {
                index = early.index
                let named = Set(changes.paths)
                for path in early.read where !named.contains(PathKey(path)) { toApply.change(path) }
            } else {
                index = try writableIndex()
            }
            var report = try index.apply(toApply, vault: vault, walker: walker(forIndex: true))
            if let before = early?.report { report = before.followed(by: report) }
            run.indexed = ScanReport(report)
            try index.finishBuild()
        } catch {
            run.warnings.append(VaultWarning(path: error.path ?? vault.root,
                                             message: "the index was not updated with the pulled files: "
                                                 + Self.summary(error) + "; run `sheaf index`"))
            return
        }
        let attachments = changes.written.map(\.path).filter { !VaultPath.isNote($0) }
        guard !attachments.isEmpty else { return }
        do {
            run.thumbnails = try makeThumbnails(in: index, forPaths: attachments)
        } catch {
            run.warnings.append(VaultWarning(path: error.path ?? vault.root,
                                             message: "thumbnails of the pulled images were not made: "
                                                 + Self.summary(error) + "; run `sheaf thumb`"))
        }
    }

    /// An error as one line for a warning: what happened and why.
    static func summary(_ error: SheafError) -> String { error.summary }

    /// Completes a work-tree update that a killed sync left half done.
    func resumeInterruptedUpdate() throws(SheafError) -> Bool {
        guard FileManager.default.fileExists(atPath: syncJournal) else { return false }
        let repo = try requireRepository()
        // The update a pull began keeps on disk what it kept then: the files of shares, by the
        // list on disk and by the list of the commit it moves to (a hand-over half done).
        var update = WorkTreeUpdate(repository: repo, workTree: vault.root, journal: syncJournal)
        let target = (try? String(contentsOfFile: syncJournal, encoding: .utf8))?.split(separator: "\n").dropFirst().first.map(String.init)
        let (listed, incoming) = (shareList(), shareList(inCommit: target, repo))
        if !listed.shares.isEmpty || !incoming.shares.isEmpty {
            update.keepOnDisk = { path in listed.share(holding: path) != nil || incoming.share(holding: path) != nil }
        }
        do {
            return try update.resume()
        } catch {
            throw SheafError("cannot finish the interrupted sync", path: vault.root, cause: "\(error)",
                             hint: "nothing is lost: the merged commit is in git; run `sheaf sync` again")
        }
    }

    /// A SyncError as a message that says what to do. URLs and libgit2's messages pass through
    /// `RemoteURL.redacting`, so a secret in a remote's URL is never shown.
    func describe(_ error: SyncError) -> SheafError {
        var described = describeUnredacted(error)
        described.path = described.path.map { RemoteURL.redacting($0) }
        described.cause = described.cause.map { RemoteURL.redacting($0) }
        described.hint = described.hint.map { RemoteURL.redacting($0) }
        described.what = RemoteURL.redacting(described.what)
        return described
    }

    private func describeUnredacted(_ error: SyncError) -> SheafError {
        switch error {
        case .noRemote:
            return SheafError("this vault has no remote", path: vault.root,
                              hint: "add one with `sheaf remote add origin URL`")
        case .unknownRemote(let name):
            return SheafError("no such remote", path: name, hint: "see `sheaf remote list`")
        case .detachedHead:
            return SheafError("the vault's git HEAD is detached, not on a branch", path: vault.root,
                              hint: "check out your branch with `git checkout main`")
        case .unrelatedHistories(let remote):
            return SheafError("the remote's history has nothing in common with this vault's", path: remote,
                              hint: "if both really are the same vault, run again with --allow-unrelated")
        case let .unreachable(remote, url, waiting, cause):
            let wait = waiting == 1 ? "1 local commit waits" : "\(waiting) local commits wait"
            return SheafError("cannot reach the remote \(remote)", path: url, cause: cause,
                              hint: "\(wait) to be pushed; they are safe. Run `sheaf sync` when online", kind: .offline)
        case let .transfer(remote, url, failure, cause):
            switch failure {
            case .authentication:
                return SheafError("authentication failed for \(remote)", path: url, cause: cause,
                                  hint: RemoteURL.isHTTP(url)
                                      ? "store the right password or token in git's credential helper (give it in the URL to `sheaf remote add` or `sheaf clone`), or set SHEAF_HTTP_USER and SHEAF_HTTP_TOKEN"
                                      : "load your key into ssh-agent or put it in ~/.ssh/id_ed25519, and check the server accepts it")
            case .untrustedCertificate(let host):
                return SheafError("the https certificate of the remote is not trusted", path: host, cause: cause,
                                  hint: "if the server uses its own certificate authority, point GIT_SSL_CAINFO (or git's http.sslCAInfo) at the authority's certificate file")
            case .unknownHost(let host):
                return SheafError("the ssh host is not in ~/.ssh/known_hosts", path: host,
                                  hint: "check its key fingerprint, then run again with --accept-new-host to record it")
            case .changedHostKey(let host):
                return SheafError("the ssh host key has CHANGED and was refused", path: host,
                                  cause: "the key differs from the one in ~/.ssh/known_hosts: the server was reinstalled, or someone is in between",
                                  hint: "if the change is expected, remove the old key with `ssh-keygen -R \(host)`")
            case .notFound:
                return SheafError("the remote repository was not found", path: url, cause: cause,
                                  hint: "check the URL with `sheaf remote list`")
            case .rejected:
                return SheafError("the remote refused the push", path: url, cause: cause,
                                  hint: "run `sheaf sync`: it merges the remote's new commits first")
            case .unreachable, .other:
                return SheafError("cannot talk to the remote \(remote)", path: url, cause: cause)
            }
        case let .remoteLocked(remote, lock):
            return SheafError("the remote's branch is locked", path: lock,
                              cause: "a push to \(remote) is under way, or one was stopped half way on another device",
                              hint: "if nothing is pushing there, delete the lock file and sync again; your commits wait here")
        case let .stillRejected(remote, attempts):
            return SheafError("the remote kept refusing the push after \(attempts) tries", path: remote,
                              hint: "someone is pushing very often; run `sheaf sync` again in a moment")
        case .git(let error):
            return SheafError("git failed", path: vault.root, cause: error.description)
        }
    }
}
