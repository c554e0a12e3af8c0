// The share commands: `share` (a folder or note of this vault becomes a share with its own
// remote), `join` (a share someone made appears here), `shares` (each share's state), `unshare`
// (a share's files return to the vault's repository) and `leave` (stop syncing a share). Which
// shares the vault has is `.sheaf-shares` (ShareList), tracked in the vault's repository; each
// share's repository is local state in `.sheaf/shares/` (ShareZone). docs/sharing.md has the model.
import Foundation
import SheafCore
import SheafFiles
import SheafGit
import SheafSync

/// A share as `sheaf shares` shows it.
public struct ShareStatus: Sendable, Equatable {
    public enum State: String, Sendable, Codable {
        case inStep = "in-step", ahead, behind, diverged
        /// Listed, but this device has not joined it yet (the next sync does).
        case notJoined = "not-joined"
        /// Listed with a remote on a host this device does not sync with: it joins only when
        /// asked to (`sheaf join URL PATH`), never by a sync (see `trustedShareHosts`).
        case needsApproval = "needs-approval"
        case offline
        case readOnly = "read-only"
        case conflicts
        /// The last sync of it failed for another reason (`lastError`).
        case failing
    }
    public let path: String
    /// The remote, with any credential taken out.
    public let remote: String
    public let isNote: Bool
    public let state: State
    /// Local commits the remote does not have, and the other way round (as of the last fetch).
    public let ahead: Int
    public let behind: Int
    /// Conflict files inside the share.
    public let conflicts: Int
    public let lastSync: Date?
    public let lastError: String?
}

/// What `share` and `join` did.
public struct ShareReport: Sendable {
    public let path: String
    public let remote: String
    /// Files the share's repository holds now.
    public let files: Int
    /// The vault's commit that handed the files over (share) or listed the share (join).
    public var vaultCommit: VaultCommit?
    /// The share's first push, or why it did not happen (the share exists; `sync` pushes later).
    public var pushed: Bool
    public var warning: String?
}

extension VaultSession {
    var shareListPath: String { vault.root + "/" + ShareList.fileName }

    /// The vault's shares as `.sheaf-shares` lists them on disk. With `warn`, each line left out
    /// becomes a warning.
    func shareList(warn: Bool = false) -> ShareList {
        let list = ShareList(text: try? String(contentsOfFile: shareListPath, encoding: .utf8))
        if warn {
            for problem in list.problems { emit(.warning(VaultWarning(path: ShareList.fileName, message: problem + "; left out"))) }
        }
        return list
    }

    /// The shares listed in a commit of the vault (nil commit or no list: none).
    func shareList(inCommit commit: String?, _ repo: Repository) -> ShareList {
        guard let commit, let file = try? repo.file(at: ShareList.fileName, inCommit: commit),
              let bytes = try? repo.blobBytes(file.blob) else { return ShareList() }
        return ShareList(text: String(decoding: bytes, as: UTF8.self))
    }

    func zone(_ share: Share) -> ShareZone {
        var zone = ShareZone(share: share, vault: vault)
        zone.vaultRepository = (try? repository()) ?? nil
        return zone
    }

    /// `sheaf share PATH --remote URL`: PATH (a folder, or one note) leaves the vault's repository
    /// in one commit and becomes the first commit of its own repository, pushed to URL. Nothing on
    /// disk moves.
    public func share(_ target: String, remote url: String, options: SyncOptions = SyncOptions()) throws(SheafError) -> ShareReport {
        try withWriterLock { (proof) throws(SheafError) -> ShareReport in
            _ = try resumeInterruptedUpdate()
            let path = try sharedPath(target)
            let plan = try shareRemote(url)
            let share = Share(path: path, remote: plan.url)
            var options = options
            if let credential = plan.credential { options.credential = credential }
            var list = shareList()
            if let reason = list.add(share) {
                throw SheafError("cannot share", path: path, cause: reason, hint: "see `sheaf shares`")
            }
            let zone = zone(share)
            guard !FileManager.default.fileExists(atPath: zone.directory) else {
                throw SheafError("a share's repository is already here", path: zone.directory,
                                 hint: "remove it if no share uses it, then share again")
            }
            // The vault's latest first: the share's first commit holds what the vault holds.
            try commitSnapshot(proof)
            let repo = try zone.create()
            var report = ShareReport(path: path, remote: RemoteURL.redacted(share.remote), files: 0, pushed: false)
            do {
                let staging = try repo.stageAll(excluding: zone.excluded)
                for skipped in staging.skipped { emit(.warning(VaultWarning(path: share.vaultPath(skipped.path), message: skipped.reason))) }
                let changes = try repo.stagedChanges()
                guard !changes.isEmpty else {
                    throw GitError(function: "share", code: .other(-1), message: "it holds no file git can record")
                }
                _ = try repo.commitIndex(message: CommitMessage.snapshot(device: device, changes: changes), fallbackName: device)
                zone.markJoined()
                report = ShareReport(path: path, remote: report.remote, files: changes.count, pushed: false)
            } catch {
                try? FileManager.default.removeItem(atPath: zone.directory)
                throw SheafError("cannot record the share in git", path: path, cause: "\(error)")
            }
            try AtomicFile.write(list.text, to: shareListPath)
            report.vaultCommit = try handOverSharedPaths(list)
            var syncer = Syncer(repository: repo, workTree: zone.workTree, journal: zone.journal, device: device,
                                remote: "origin", transfer: options.transfer)
            syncer.scope = zone.scope
            do throws(SyncError) {
                _ = try syncer.push()
                report.pushed = true
                if let credential = plan.credential { try? Self.approve(credential, for: plan.url, in: vault.root) }
                var record = ShareRecord.load(zone.statePath)
                record.lastSync = Date()
                record.save(zone.statePath)
            } catch {
                let described = describe(error)
                report.warning = "the share was made here, but its first push failed: " + Self.summary(described)
                    + (error.isRejection ? " (the remote already holds commits: to take part in a share someone made, use `sheaf join`)" : "")
                    + "; `sheaf sync` pushes it"
            }
            invalidate()
            return report
        }
    }

    /// `sheaf join URL [FOLDER]`: the share at URL appears in the vault at FOLDER (by default a
    /// folder named after the remote), indexed like any note, and is listed in `.sheaf-shares`.
    public func join(_ url: String, at folder: String?, options: SyncOptions = SyncOptions()) throws(SheafError) -> ShareReport {
        try withWriterLock { (proof) throws(SheafError) -> ShareReport in
            _ = try resumeInterruptedUpdate()
            let plan = try shareRemote(url)
            let remote = plan.url
            var options = options
            if let credential = plan.credential { options.credential = credential }
            var list = shareList()
            let place = try joinPath(folder, remote: remote)
            if let listed = list.share(at: place), !zone(listed).isJoined {
                return try joinWaiting(listed, url: remote, credential: plan, options: options, proof)
            }
            let path = try joinFolder(place)
            let share = Share(path: path, remote: remote)
            if let reason = list.add(share) { throw SheafError("cannot join", path: path, cause: reason) }
            let zone = zone(share)
            _ = try zone.create()
            // Listed before any file arrives: a join killed half way is finished by the next sync
            // (never are the share's files left to the vault's repository).
            let before = try? String(contentsOfFile: shareListPath, encoding: .utf8)
            try AtomicFile.write(list.text, to: shareListPath)
            let run: ShareRun
            do throws(SheafError) {
                run = try syncShare(zone, options: options, mode: .pull, fetched: nil, base: nil)
            } catch {
                try? FileManager.default.removeItem(atPath: zone.directory)
                if let before { try? AtomicFile.write(before, to: shareListPath) } else { unlink(shareListPath) }
                throw error
            }
            zone.markJoined()
            if let credential = plan.credential { try Self.approve(credential, for: plan.url, in: vault.root) }
            var report = ShareReport(path: path, remote: RemoteURL.redacted(remote),
                                     files: run.pull?.changes.count ?? 0, pushed: true)
            report.vaultCommit = try commitSnapshot(proof)
            if let pull = run.pull { var into = SyncRun(remote: "origin"); updateIndex(after: pull.changes, into: &into)
                for warning in into.warnings { emit(.warning(warning)) } }
            return report
        }
    }

    /// `sheaf shares`: every listed share and its state here.
    public func shareStatuses() throws(SheafError) -> [ShareStatus] {
        let list = shareList(warn: true)
        var conflictsByShare: [String: Int] = [:]
        if let conflicts = try? conflicts() {
            for conflict in conflicts { if let share = list.share(holding: conflict.path) { conflictsByShare[share.path, default: 0] += 1 } }
        }
        let trusted = list.shares.contains { !zone($0).isJoined } ? trustedShareHosts(list) : []
        return list.shares.map { share in
            let zone = zone(share)
            let record = ShareRecord.load(zone.statePath)
            var ahead = 0, behind = 0
            var state: ShareStatus.State = needsApproval(share, trusted: trusted) ? .needsApproval : .notJoined
            var remote = share.remote
            if zone.isJoined, let repo = try? zone.open() {
                if let actual = (try? repo.remoteURL("origin")) ?? nil { remote = actual }
                let head = try? repo.head()?.id
                let tracking = try? repo.referenceTarget("refs/remotes/origin/main")
                if let head, let tracking, let counts = try? repo.aheadBehind(local: head, upstream: tracking) {
                    (ahead, behind) = counts
                } else if let head {
                    ahead = (try? repo.commitCount(head)) ?? 0
                }
                state = ahead > 0 && behind > 0 ? .diverged : ahead > 0 ? .ahead : behind > 0 ? .behind : .inStep
                if record.readOnly { state = .readOnly }
                if let error = record.lastError { state = error.hasPrefix("offline") ? .offline : .failing }
                if conflictsByShare[share.path, default: 0] > 0 { state = .conflicts }
            }
            return ShareStatus(path: share.path, remote: RemoteURL.redacted(remote), isNote: share.isNote, state: state,
                               ahead: ahead, behind: behind, conflicts: conflictsByShare[share.path, default: 0],
                               lastSync: record.lastSync, lastError: record.lastError)
        }
    }

    /// `sheaf unshare PATH`: the share's files return to the vault's repository (one commit) after
    /// a last sync of the share; the share's remote keeps its history.
    public func unshare(_ target: String, options: SyncOptions = SyncOptions()) throws(SheafError) -> ShareRun {
        try withWriterLock { (proof) throws(SheafError) -> ShareRun in
            _ = try resumeInterruptedUpdate()
            var list = shareList()
            let share = try listedShare(target, in: list)
            let zone = zone(share)
            var run = ShareRun(path: share.path)
            if zone.isJoined {
                // A last sync; when it fails, the share's last changes stay here (as the vault's)
                // and the command says so.
                do throws(SheafError) { run = try syncShare(zone, options: options, mode: .sync, fetched: nil, base: nil) } catch {
                    run.error = error
                }
            }
            list.remove(path: share.path)
            try AtomicFile.write(list.text, to: shareListPath)
            run.vaultCommit = try commitSnapshot(proof)
            try? FileManager.default.removeItem(atPath: zone.directory)
            invalidate()
            return run
        }
    }

    /// `sheaf leave PATH`: stop syncing a share. Its files stay as notes of this vault (recorded
    /// in the vault's repository), or with `removeFiles` are deleted from disk (the share's remote
    /// still has them).
    public func leave(_ target: String, removeFiles: Bool) throws(SheafError) -> VaultCommit? {
        try withWriterLock { (proof) throws(SheafError) -> VaultCommit? in
            _ = try resumeInterruptedUpdate()
            var list = shareList()
            let share = try listedShare(target, in: list)
            let zone = zone(share)
            if removeFiles, zone.isJoined, let repo = try zone.open(), let head = try? repo.head()?.id {
                let unsynced = ((try? repo.workTreeChanges()) ?? []).filter { !zone.excluded($0.path) }
                if !unsynced.isEmpty {
                    throw SheafError("the share has changes not synced yet", path: share.path,
                                     details: unsynced.map { share.vaultPath($0.path) }.sorted(by: PathBytes.sortsBefore),
                                     hint: "run `sheaf sync` first, or leave without --remove-files")
                }
                // No longer joined before the first file goes: a leave killed half way is never
                // synced as deletions (the next sync joins the share again and brings them back).
                unlink(zone.joinedMarker)
                for (path, _) in (try? repo.files(inCommit: head)) ?? [] where share.admits(shareRelative: path) {
                    unlink(zone.workTree + "/" + path)
                }
                if !share.isNote { removeEmptyFolders(zone.workTree) }
            }
            list.remove(path: share.path)
            try AtomicFile.write(list.text, to: shareListPath)
            try? FileManager.default.removeItem(atPath: zone.directory)
            invalidate()
            let commit = try commitSnapshot(proof)
            _ = try? freshIndex()
            return commit
        }
    }

    // MARK: - Helpers

    /// The hand-over: paths the vault's repository still tracks that a listed share holds leave
    /// the vault's index (the files stay on disk, the share's repository holds them); one commit.
    @discardableResult
    func handOverSharedPaths(_ list: ShareList) throws(SheafError) -> VaultCommit? {
        guard !list.shares.isEmpty else { return nil }
        let repo = try requireRepository()
        do {
            guard try repo.head() != nil else { return nil }
            try repo.untrackAll { list.share(holding: $0) != nil }
            if FileManager.default.fileExists(atPath: shareListPath) {
                _ = try repo.stageAll(excluding: { $0 != ShareList.fileName })
            }
            let changes = try repo.stagedChanges()
            guard !changes.isEmpty else { return nil }
            let made = try repo.commitIndex(message: CommitMessage.handOver(device: device, changes: changes), fallbackName: device)
            return VaultCommit(id: made.id, summary: made.summary)
        } catch {
            throw SheafError("cannot hand the shared files over in git", path: vault.root, cause: "\(error)")
        }
    }

    /// The vault path a `share` names: a folder (relative to the working folder) or a note.
    private func sharedPath(_ target: String) throws(SheafError) -> String {
        let absolute = Vault.absolutePath(target, from: vault.root + (workingFolder.map { $0.isEmpty ? "" : "/" + $0 } ?? ""))
        if let relative = vault.relative(absolute) {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: absolute, isDirectory: &isFolder), isFolder.boolValue {
                guard !relative.isEmpty else { throw SheafError("the whole vault cannot be a share", path: vault.root,
                                                                hint: "share a folder or a note of it") }
                return relative
            }
        }
        return try resolve(target).path
    }

    /// A share's URL as `.sheaf-shares` keeps it (no user-info password: that goes to git's
    /// credential helper, as for `sheaf remote add`).
    private func shareRemote(_ url: String) throws(SheafError) -> CredentialPlan {
        guard !url.trimmingHorizontalWhitespace.isEmpty else { throw SheafError("the share's URL is empty", path: vault.root) }
        if let local = RemoteURL.localPath(url), let target = VaultWalker.realPath(Self.absoluteRemote(local)),
           target == VaultWalker.realPath(vault.root) || target.hasBytePrefix((VaultWalker.realPath(vault.root) ?? vault.root) + "/") {
            throw SheafError("a share's remote cannot be inside the vault", path: url,
                             hint: "give the path of a bare repository elsewhere (`git init --bare DIR`)")
        }
        return try Self.credentialPlan(for: url, checkingFrom: vault.root)
    }

    /// Where `join` puts a share: FOLDER, or a folder named after the remote, as a vault path.
    private func joinPath(_ folder: String?, remote: String) throws(SheafError) -> String {
        let name = folder ?? {
            var last = String(remote.split(whereSeparator: { $0 == "/" || $0 == ":" }).last ?? "share")
            if last.hasSuffix(".git") { last.removeLast(4) }
            return last.isEmpty ? "share" : last
        }()
        let absolute = Vault.absolutePath(name, from: vault.root + (workingFolder.map { $0.isEmpty ? "" : "/" + $0 } ?? ""))
        guard let relative = vault.relative(absolute), !relative.isEmpty else {
            throw SheafError("a share must be joined into a folder inside the vault", path: name)
        }
        return relative
    }

    /// A new share's folder: new or empty.
    private func joinFolder(_ relative: String) throws(SheafError) -> String {
        let absolute = vault.absolute(relative)
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: absolute), !entries.isEmpty {
            throw SheafError("the folder already holds files", path: relative, hint: "join into a new folder: `sheaf join URL FOLDER`")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: absolute, isDirectory: &isFolder), !isFolder.boolValue {
            throw SheafError("a file is there", path: relative, hint: "join into a new folder: `sheaf join URL FOLDER`")
        }
        return relative
    }

    /// `join` of a share the vault's list already names but this device has not joined (its
    /// host was not trusted, or an earlier join failed): joined as a sync would have, with the
    /// hand-over, if the URL given is the one listed.
    private func joinWaiting(_ listed: Share, url: String, credential plan: CredentialPlan, options: SyncOptions,
                             _ proof: borrowing WriterLock) throws(SheafError) -> ShareReport {
        guard RemoteURL.withoutUserInfo(listed.remote).url == url else {
            throw SheafError("the vault lists this share with another remote", path: listed.path,
                             details: [RemoteURL.redacted(listed.remote)],
                             hint: "join it with the URL `sheaf shares` shows, or into another folder")
        }
        var options = options
        if let credential = plan.credential { options.credential = credential }
        guard var run = joinListed(shareList(), base: nil, options: options, approving: listed.path).first else {
            throw SheafError("no share there", path: listed.path, hint: "see `sheaf shares`")
        }
        if let error = run.error { throw error }
        if let credential = plan.credential { try Self.approve(credential, for: plan.url, in: vault.root) }
        var report = ShareReport(path: listed.path, remote: RemoteURL.redacted(listed.remote),
                                 files: run.pull?.changes.count ?? 0, pushed: run.push != nil)
        report.vaultCommit = try commitSnapshot(proof)
        if let pull = run.pull {
            var into = SyncRun(remote: "origin")
            updateIndex(after: pull.changes, into: &into)
            for warning in into.warnings { emit(.warning(warning)) }
        }
        run.joined = true
        return report
    }

    /// The hosts this device syncs with: its vault's remotes' and its joined shares' (their
    /// repositories' own remotes, which a list edited elsewhere cannot change). A share that the
    /// vault's list names on any other host is joined only when asked: the list comes from the
    /// vault's remote, and a hostile one must not make this device fetch, with its credentials,
    /// from wherever it names.
    func trustedShareHosts(_ list: ShareList) -> Set<String> {
        var urls = ((try? repository()?.remotes()) ?? nil)?.map(\.url) ?? []
        for share in list.shares {
            let zone = zone(share)
            if zone.isJoined, let repo = try? zone.open(), let url = (try? repo.remoteURL("origin")) ?? nil { urls.append(url) }
        }
        return Set(urls.compactMap(Self.trustKey))
    }

    func needsApproval(_ share: Share, trusted: Set<String>) -> Bool {
        guard let key = Self.trustKey(share.remote) else { return true }
        return !trusted.contains(key)
    }

    /// What a remote is trusted as: its host (`RemoteURL.host`), or for a repository on this
    /// machine the folder that holds it. Regression: every path was "this machine", so a vault
    /// that syncs with /srv/git/notes.git joined by itself a listed share at any repository the
    /// user can read (the vault's own `.git`, `/proc/self/cwd/.git`), to fetch from and push to;
    /// now only its neighbours in /srv/git are trusted.
    static func trustKey(_ url: String) -> String? {
        guard let local = RemoteURL.localPath(url) else { return RemoteURL.host(url) }
        guard !local.isEmpty else { return nil }
        let absolute = local.hasBytePrefix("/") ? local : Vault.absolutePath(local, from: FileManager.default.currentDirectoryPath)
        var trimmed = absolute
        while trimmed.utf8.count > 1, trimmed.utf8.last == UInt8(ascii: "/") { trimmed.removeLast() }
        guard let real = VaultWalker.realPath((trimmed as NSString).deletingLastPathComponent) else { return nil }
        return "file:" + real
    }

    private func listedShare(_ target: String, in list: ShareList) throws(SheafError) -> Share {
        let absolute = Vault.absolutePath(target, from: vault.root + (workingFolder.map { $0.isEmpty ? "" : "/" + $0 } ?? ""))
        if let relative = vault.relative(absolute), let share = list.share(at: relative) { return share }
        if let share = list.share(at: target) { return share }
        throw SheafError("no share there", path: target, details: list.shares.map(\.path), hint: "see `sheaf shares`")
    }

    private func removeEmptyFolders(_ folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder), isFolder.boolValue {
                removeEmptyFolders(folder + "/" + name)
            }
        }
        rmdir(folder)
    }
}

extension SyncError {
    /// The remote refused the push because it holds commits this side lacks.
    var isRejection: Bool {
        if case .transfer(_, _, .rejected, _) = self { return true }
        return false
    }
}
