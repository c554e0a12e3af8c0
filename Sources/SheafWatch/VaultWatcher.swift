// The live view of a vault: inotify on every folder the walk would enter, events turned into
// vault paths and gathered into one `VaultChangeSet` per quiet period. What it cannot vouch for
// (the kernel's queue overflowed, a watch limit, an unreadable event, a folder that left the
// vault, edited ignore rules) marks the batch "rescan needed" instead: the consumer then runs
// one incremental scan, so no change is ever silently missed. After an overflow every folder is
// watched again before the batch is handed over, so the consumer's scan starts from a complete
// set of watches.
//
// Events are kept in order as small operations and folded into the change set when the batch is
// made: a move's first half (IN_MOVED_FROM) holds its place until its second half arrives (a
// rename) or its window passes (a removal), so "moved away, then a new file at the same name" is
// still a change, not nothing.
//
// The fold guesses what happened; what is on disk when the batch is applied decides. Every path
// an event named is in the change set, and a path the fold lost (saved by rename, then deleted
// or moved: "added, then removed" cancels out, yet the path held a file before) is named to
// `recheck`. So is every folder that appeared, left, moved or was deleted, whole: which files it
// held is known only to the index, and the move's other half may never be seen (its new parent
// was watched only after the move), so the applier compares the folder's catalog rows with the
// folder on disk.
#if canImport(Glibc)
import Glibc
#endif
import SheafCore

/// Watches one vault and hands out its changes in batches (`nextBatch`). Use it from one thread;
/// `stop` ends a wait from any thread.
public final class VaultWatcher {
    public let vault: Vault
    public let options: WatchOptions
    /// Ends `nextBatch`'s wait from another thread or a signal handler.
    public let stop: WatchStop

    private var filter: WatchFilter
    private let queue: InotifyQueue
    private let folders = FolderWatches()
    private let rules = RuleFileWatches()
    private var cookieWatch: Int32 = -1

    private enum Operation {
        case add(String), change(String), remove(String), rename(String, String)
        /// A folder (or a file) whose whole subtree is compared with the disk when applied.
        case recheck(String)
        case many([Operation])
        case waiting  // a move's first half, until its second half or its window passes
    }
    private struct PendingMove {
        let slot: Int
        let path: String
        let isFolder: Bool
        let deadline: Double
    }

    private var operations: [Operation] = []
    private var pendingMoves: [UInt32: PendingMove] = [:]
    private var reasons: [String] = []
    private var cookies: [String] = []
    private var warnings: [String] = []
    private var resyncNeeded = false
    private var rulesChanged = false
    private var firstEvent: Double?
    private var lastEvent: Double = 0
    private var sequence = 0
    private var rootGone = false
    /// When watches were last tried again for folders that could not be watched.
    private var lastRetry: Double = 0
    /// Symlinked files: a note indexed through its target, whose edits raise events under the
    /// target's path only. Every batch reports them changed (their content hash decides).
    private var symlinks: [PathKey: String] = [:]
    /// Why this watcher can never vouch (a file system whose changes made elsewhere raise no
    /// inotify event), or nil.
    public private(set) var cannotVouch: String?

    /// Starts watching every folder of `vault` that `filter` follows (and `.sheaf/cookies`).
    /// Changes made from now on are seen; the caller scans once after this returns to catch up
    /// on what changed before.
    public init(vault: Vault, filter: WatchFilter = WatchFilter(), options: WatchOptions = WatchOptions(),
                stop: WatchStop = WatchStop()) throws(SheafError) {
        self.vault = vault
        self.filter = filter
        self.options = options
        self.stop = stop
        queue = try InotifyQueue()
        try WatchCookies.makeFolder(vault)
        let cookieMask = UInt32(bitPattern: IN_CREATE) | UInt32(bitPattern: IN_ONLYDIR) | UInt32(bitPattern: IN_DONT_FOLLOW)
        switch queue.addWatch(WatchCookies.folder(vault), mask: cookieMask) {
        case .watching(let wd): cookieWatch = wd
        case .gone: throw SheafError("cannot watch the cookie folder", path: WatchCookies.folder(vault), cause: "it vanished")
        case .failed(let why): throw SheafError("cannot watch the vault", path: vault.root, cause: why)
        }
        WatchCookies.answerEarlierStale(vault)
        let scan = folders.watchTree("", vault: vault, queue: queue, filter: filter)
        guard folders.watch("") != nil else {
            throw SheafError("cannot watch the vault", path: vault.root, cause: scan.failures.first ?? "the folder is gone")
        }
        warnings += scan.warnings
        remember(scan)
        rules.refresh(vault: vault, queue: queue)
        cannotVouch = Self.unwatchableFileSystem(vault.root)
    }

    /// Network and FUSE file systems: inotify sees only the changes made through this machine's
    /// kernel, not an edit on the server, another client or the Windows side of WSL.
    static func unwatchableFileSystem(_ path: String) -> String? {
        // statfs(2) is in glibc but not in Swift's Glibc module: looked up by name. Its struct
        // starts with f_type (a long on Linux's 64-bit targets); 256 bytes hold the whole struct.
        typealias StatFS = @convention(c) (UnsafePointer<CChar>, UnsafeMutableRawPointer) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "statfs") else { return nil }
        let call = unsafeBitCast(symbol, to: StatFS.self)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 8)
        defer { buffer.deallocate() }
        guard call(path, buffer) == 0 else { return nil }
        let type = Int64(buffer.load(as: Int.self)) & 0xFFFF_FFFF
        let kinds: [Int64: String] = [0x6969: "NFS", 0x517B: "SMB", 0xFF53_4D42: "CIFS", 0xFE53_4D42: "SMB2",
                                      0x6573_5546: "FUSE", 0x0102_1997: "9P", 0x0BD0_0BD0: "Lustre", 0x564C: "NCP",
                                      0x7375_7245: "Coda", 0x5346_414F: "AFS", 0x0122_5F5A: "Ceph"]
        return kinds[type].map { "the vault is on \($0), where changes made elsewhere raise no inotify event" }
    }

    private func remember(_ scan: TreeScan) {
        for link in scan.symlinks { symlinks[PathKey(link)] = link }
    }

    /// How many folders are watched.
    public var watchedFolders: Int { folders.count }

    /// Folders that could not be watched, with why. While any is listed, every batch is marked
    /// "rescan needed" and cookies must be answered stale: changes there would go unseen.
    public var unwatchedFolders: [(folder: String, why: String)] {
        folders.missing.map { ($0.key.path, $0.value) }.sorted { PathBytes.precedes($0.folder, $1.folder) }
    }

    /// Whether every folder the walk would enter is watched.
    public var isComplete: Bool { folders.missing.isEmpty && cannotVouch == nil }

    /// Replaces the rules of what is followed (after a batch with `rulesChanged`, from the
    /// rules as they are now): folders the new rules follow are watched, those they ignore are
    /// no longer. The caller then scans once, as for any batch with `rescanNeeded`.
    public func replaceFilter(_ filter: WatchFilter) {
        self.filter = filter
        resync()
    }

    /// Waits for the next batch: changes that settled (`options.quietPeriod` without an event,
    /// or `options.maxLatency` after the first), or a reader's cookie. Returns nil once `stop`
    /// is called. Throws when the vault folder itself is moved or deleted.
    public func nextBatch() throws(SheafError) -> WatchBatch? {
        while true {
            if stop.isStopped { return nil }
            if rootGone {
                throw SheafError("the vault folder was moved or deleted", path: vault.root,
                                 cause: "its watch reported IN_DELETE_SELF or IN_MOVE_SELF",
                                 hint: "start the watcher again in the vault's new place")
            }
            let now = WatchClock.now()
            resolveExpiredMoves(now: now)
            if pendingMoves.isEmpty, let first = firstEvent,
               !cookies.isEmpty || now - lastEvent >= options.quietPeriod || now - first >= options.maxLatency {
                if let batch = makeBatch() { return batch }
                continue
            }
            var deadline = Double.infinity
            if let first = firstEvent { deadline = min(lastEvent + options.quietPeriod, first + options.maxLatency) }
            for move in pendingMoves.values { deadline = min(deadline, move.deadline) }
            let timeout: Int32 = deadline == .infinity ? -1 : Int32(max(0, ((deadline - now) * 1000).rounded(.up)))
            var fds = [pollfd(fd: queue.fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stop.readEnd, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, timeout)
            if ready < 0 && errno != EINTR {
                needRescan("waiting for events failed: \(String(cString: strerror(errno)))", resync: true)
            }
            guard ready > 0, fds[0].revents != 0 else { continue }
            guard let events = queue.readAvailable() else {
                needRescan("an inotify event could not be read", resync: true)
                continue
            }
            let time = WatchClock.now()
            for event in events { handle(event, at: time) }
        }
    }

    // MARK: - Events

    private func noteEvent(at time: Double) {
        if firstEvent == nil { firstEvent = time }
        lastEvent = time
    }

    private func needRescan(_ why: String, resync: Bool = false, rules: Bool = false) {
        if !reasons.contains(why) { reasons.append(why) }
        if resync { resyncNeeded = true }
        if rules { rulesChanged = true }
        noteEvent(at: WatchClock.now())
    }

    private func handle(_ event: InotifyEvent, at time: Double) {
        if event.has(IN_Q_OVERFLOW) {
            return needRescan("the inotify queue overflowed (/proc/sys/fs/inotify/max_queued_events = \(InotifyQueue.limit("max_queued_events")))", resync: true)
        }
        if event.wd == cookieWatch {
            if event.has(IN_CREATE), !event.isFolder, let name = PathBytes.string(event.name), WatchCookies.isCookie(name) {
                cookies.append(name)
                noteEvent(at: time)
            } else if event.has(IN_IGNORED) {
                cookieWatch = -1  // the folder was removed: readers get no answer and walk
            }
            return
        }
        switch rules.handle(event, vault: vault, queue: queue) {
        case .notMine: break
        case .nothing: return
        case .rulesChanged(let path): return needRescan("ignore rules changed: \(path)", rules: true)
        }
        guard let folder = folders.path(event.wd) else { return }  // a watch already dropped
        if event.has(IN_IGNORED) { return folders.forget(event.wd) }
        if event.name.isEmpty {
            if folder.isEmpty, event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF) { rootGone = true }
            return  // a subfolder's own removal or move is handled from its parent's event
        }
        guard let name = PathBytes.string(event.name) else {
            warnings.append(VaultPath.join(folder, PathBytes.displayName(event.name)) + ": the name is not UTF-8; skipped")
            return
        }
        let path = VaultPath.join(folder, name)
        if name.hasBytePrefix(".") {
            if name == ".gitignore" { needRescan("ignore rules changed: \(path)", rules: true) }
            if folder.isEmpty, event.isFolder, event.has(IN_CREATE) || event.has(IN_MOVED_TO),
               !rules.rootDotNameAppeared(name, vault: vault, queue: queue).isEmpty {
                needRescan("ignore rules changed: \(path)", rules: true)
            }
            return  // dot-names are never followed (editors' swap and temporary files among them)
        }
        noteEvent(at: time)
        if event.has(IN_MOVED_FROM) {
            pendingMoves[event.cookie] = PendingMove(slot: operations.count, path: path, isFolder: event.isFolder,
                                                     deadline: time + options.moveWindow)
            operations.append(.waiting)
        } else if event.has(IN_MOVED_TO) {
            if let move = pendingMoves.removeValue(forKey: event.cookie) {
                operations[move.slot] = move.isFolder ? folderMoved(from: move.path, to: path) : .rename(move.path, path)
            } else {
                operations.append(event.isFolder ? folderAppeared(path) : .add(path))
            }
        } else if event.isFolder {
            if event.has(IN_CREATE) {
                operations.append(folderAppeared(path))
            } else if event.has(IN_DELETE) {
                _ = folders.removeSubtree(path)
                operations.append(.recheck(path))  // (files deleted before its watch existed too)
            } else if event.has(IN_ATTRIB), folders.watch(path) == nil, folders.missing[PathKey(path)] != nil {
                operations.append(folderAppeared(path))  // readable again, say
            }
        } else if event.has(IN_CREATE) {
            var info = stat()
            if lstat(vault.absolute(path), &info) == 0, info.st_mode & S_IFMT == S_IFLNK { symlinks[PathKey(path)] = path }
            operations.append(.add(path))
        } else if event.has(IN_DELETE) {
            operations.append(.remove(path))
        } else if event.has(IN_CLOSE_WRITE) || event.has(IN_MODIFY) || event.has(IN_ATTRIB) {
            operations.append(.change(path))
        }
    }

    /// A folder that was not watched now is (made, moved in from outside or from an ignored
    /// place): watch it and everything under it, and report every file in it as added.
    private func folderAppeared(_ path: String) -> Operation {
        guard filter.follows(path, isFolder: true) else { return .many([]) }
        let scan = folders.watchTree(path, vault: vault, queue: queue, filter: filter)
        for failure in scan.failures { needRescan(failure) }
        warnings += scan.warnings
        remember(scan)
        return .many([.recheck(path)] + scan.files.map(Operation.add))
    }

    /// A folder renamed inside the vault: its files are renamed.
    private func folderMoved(from: String, to: String) -> Operation {
        // Its watches may already name the new path (its new parent was listed after the move)
        // or it was not followed: its old place is rechecked, its new one listed.
        guard folders.watch(from) != nil else { return .many([.recheck(from), folderAppeared(to)]) }
        guard filter.follows(to, isFolder: true) else {
            folderLeft(from)
            return .recheck(from)
        }
        folders.renameSubtree(from: from, to: to)
        // Listed with watches: rules that depend on the path (an anchored .gitignore line,
        // Obsidian's excluded folders) may follow a subfolder here that they did not follow
        // under the old name (a watch on a watched folder gives its own descriptor back), and
        // a subfolder they no longer follow leaves.
        let scan = folders.watchTree(to, vault: vault, queue: queue, filter: filter)
        for failure in scan.failures { needRescan(failure) }
        warnings += scan.warnings
        remember(scan)
        let listed = Set(scan.folders.map(PathKey.init))
        for (_, folder) in folders.subtree(to) where !listed.contains(PathKey(folder)) && folders.watch(folder) != nil {
            folderLeft(folder)
        }
        return .many([.recheck(from), .recheck(to)] + scan.files.map { .rename(from + String(decoding: $0.utf8.dropFirst(to.utf8.count), as: UTF8.self), $0) })
    }

    /// A watched folder left the followed tree: its watches go (they would report under paths it
    /// no longer has). Its old place is rechecked by the caller.
    private func folderLeft(_ path: String) {
        for wd in folders.removeSubtree(path) { queue.removeWatch(wd) }
    }

    private func resolveExpiredMoves(now: Double, all: Bool = false) {
        for (cookie, move) in pendingMoves where all || move.deadline <= now {
            pendingMoves.removeValue(forKey: cookie)
            if move.isFolder {
                // Moved out of the vault or into a hidden folder, or into a folder whose watch
                // came after the move (then its watches name the new path already).
                if folders.watch(move.path) != nil { folderLeft(move.path) }
                operations[move.slot] = .recheck(move.path)
            } else {
                operations[move.slot] = .remove(move.path)
            }
        }
    }

    // MARK: - Batches

    private func makeBatch() -> WatchBatch? {
        // Folders that could not be watched are tried again, at most every 30 s (each try lists
        // the vault), until every one is watched: then the watcher vouches again.
        if !folders.missing.isEmpty, WatchClock.now() - lastRetry > 30 { resyncNeeded = true }
        if resyncNeeded { resync() }
        if !folders.missing.isEmpty {
            let why = folders.missing.values.sorted().first ?? ""
            needRescan("\(folders.missing.count) folder(s) are not watched: \(why)")
        }
        var changes = VaultChangeSet()
        var named: [String] = []
        func fold(_ operation: Operation) {
            switch operation {
            case .add(let path):
                changes.add(path)
                named.append(path)
            case .change(let path):
                changes.change(path)
                named.append(path)
            case .remove(let path):
                changes.remove(path)
                named.append(path)
                symlinks.removeValue(forKey: PathKey(path))
            case .rename(let from, let to):
                changes.rename(from: from, to: to)
                named += [from, to]
                if symlinks.removeValue(forKey: PathKey(from)) != nil { symlinks[PathKey(to)] = to }
            case .recheck(let path): changes.recheck(path)
            case .many(let list): list.forEach(fold)
            case .waiting: break
            }
        }
        // Folded in a rescan too: the scan trusts each file's identity, and the paths events
        // named are read again whatever it says.
        operations.forEach(fold)
        let kept = Set(changes.paths)
        for path in named where !kept.contains(PathKey(path)) { changes.recheck(path) }
        if !changes.isEmpty { for link in symlinks.values { changes.change(link) } }
        let filter = self.filter
        changes = changes.filter { filter.follows($0.path, isFolder: false) }
        let batch = WatchBatch(sequence: sequence + 1, changes: changes, rescanNeeded: !reasons.isEmpty,
                               reasons: reasons, cookies: cookies, warnings: warnings, rulesChanged: rulesChanged)
        operations = []
        rulesChanged = false
        reasons = []
        cookies = []
        warnings = []
        firstEvent = nil
        guard !batch.isEmpty || !batch.cookies.isEmpty || !batch.warnings.isEmpty else { return nil }
        sequence += 1
        return batch
    }

    /// After events were lost: watch every folder again (a folder made or moved meanwhile has no
    /// watch yet) and drop watches of folders no longer in the vault.
    private func resync() {
        resyncNeeded = false
        lastRetry = WatchClock.now()
        let before = Set(folders.pathOf.keys)
        folders.clearMissing()  // the listing marks again those that still cannot be watched
        let scan = folders.watchTree("", vault: vault, queue: queue, filter: filter)
        warnings += scan.warnings
        symlinks = [:]
        remember(scan)
        let live = Set(scan.folders.compactMap { folders.watch($0) })
        for wd in before.subtracting(live) {
            folders.forget(wd)
            queue.removeWatch(wd)
        }
        if folders.watch("") == nil { rootGone = true }
    }
}
