// An opened vault for the length of one command: where it is, its settings, its git repository
// and (read on first use) its catalog. Every command of the CLI goes through one of these.
import Foundation
import SheafCore
import SheafFiles
import SheafGit
import SheafIndex

public final class VaultSession {
    public let vault: Vault
    public private(set) var config: VaultConfig
    /// The working directory relative to the vault root, nil when outside the vault.
    public let workingFolder: String?
    private(set) var cachedRepository: Repository??
    private(set) var cachedCatalog: Catalog?
    var cachedIndex: (NoteIndex, SheafIndex.ScanReport?)? { didSet { cachedWalk = nil } }
    /// The vault's files as `cachedIndex`'s scan walked them, when that walk left nothing out
    /// (no Obsidian exclusions): the whole walk a writer needs, without walking again.
    var cachedWalk: [VaultFile]?
    /// `cachedIndex` is a read-only connection opened for a query (`freshIndex(queryOnly:)`).
    var cachedQueryOnly = false
    /// `.sheaf/lock` while this command holds it (a sync, which also re-indexes).
    var heldLock: VaultLock?
    /// The note versions this session's writes replaced, for the index's FTS deletes.
    let displacedVersions = DisplacedVersions()
    /// With it, `git gc --auto` is left to the caller after the command (VaultSession+Housekeeping):
    /// `housekeepingDue` says whether the command made one due.
    public var defersHousekeeping = false
    public internal(set) var housekeepingDue = false
    /// Who is told the session's events (`subscribe`).
    var subscribers: [@Sendable (VaultEvent) -> Void] = []
    /// The index a server's sessions share (`SharedIndex`), nil for a command's own session.
    let shared: SharedIndex?

    /// A session in `workingDirectory`; `sharing`: the index of a long-running client whose
    /// sessions read it through the same connections and derived paths.
    public init(vault: Vault, workingDirectory: String, sharing shared: SharedIndex? = nil) {
        self.vault = vault
        self.shared = shared
        self.config = VaultConfig.load(vault)
        self.workingFolder = vault.relative(Vault.absolutePath(workingDirectory, from: "/"))
    }

    /// Finds and opens the vault for a command (see `Vault.discover`).
    public static func open(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
                            workingDirectory: String = FileManager.default.currentDirectoryPath) throws(SheafError) -> VaultSession {
        let vault = try Vault.discover(explicit: explicit, environment: environment, workingDirectory: workingDirectory)
        return VaultSession(vault: vault, workingDirectory: workingDirectory)
    }

    public var device: String { config.device }

    /// Tells `handler` every event of this session from now on (`VaultEvent`): lock waits,
    /// answers from the index as it is, index progress, warnings, and what `watch` reports. It is
    /// called on the thread that has the event (for `watch`, also the background sync's), one
    /// event at a time per thread.
    public func subscribe(_ handler: @escaping @Sendable (VaultEvent) -> Void) {
        subscribers.append(handler)
    }

    /// Tells every subscriber.
    func emit(_ event: VaultEvent) { for handler in subscribers { handler(event) } }

    /// What `VaultLock.take` calls when it starts to wait.
    var lockWaitEvent: () -> Void { { [weak self] in self?.emit(.lockWait) } }

    /// `emit` as a value other threads may call (the subscribers as they are now).
    var events: @Sendable (VaultEvent) -> Void {
        let subscribers = self.subscribers
        return { event in for handler in subscribers { handler(event) } }
    }

    /// The vault's git repository, nil when it has none (someone removed .git).
    func repository() throws(SheafError) -> Repository? {
        if let cached = cachedRepository { return cached }
        do {
            let repo = try Repository.open(workTree: vault.root)
            cachedRepository = .some(repo)
            return repo
        } catch {
            throw SheafError("cannot open the vault's git repository", path: vault.root, cause: error.description)
        }
    }

    /// The repository, or an error saying how to get one.
    func requireRepository() throws(SheafError) -> Repository {
        guard let repo = try repository() else {
            throw SheafError("the vault has no git repository", path: vault.root,
                             hint: "run `sheaf init` in the vault to create one")
        }
        return repo
    }

    /// Every file and note of the vault as they are now.
    public func catalog() throws(SheafError) -> Catalog {
        if let cachedCatalog { return cachedCatalog }
        let catalog = Catalog.load(vault: vault, walker: try walker())
        cachedCatalog = catalog
        return catalog
    }

    /// Forgets the catalog after a command changed files.
    func invalidate() { cachedCatalog = nil; cachedIndex = nil }

    /// Every file of the vault, Obsidian's excluded ones included (what `mv` and `rm` keep links
    /// working in): the walk of this command's index scan when it was whole, else a walk.
    func wholeWalk() throws(SheafError) -> [VaultFile] {
        if let cachedWalk { return cachedWalk }
        return try walker().files(sorted: false).files
    }

    /// The note a name points at (path, title, file name, alias or id prefix), looked up in the
    /// index's catalog and then read from its file.
    public func resolve(_ name: String) throws(SheafError) -> CatalogNote {
        let index = try freshIndex().0
        // A note named by its path is found by that path alone (every handle is 10k rows).
        let exact = NoteLookup.exactPaths(name, workingFolder: workingFolder)
        let atPaths = try index.handles(atPaths: exact)
        let handle = if let hit = exact.lazy.compactMap({ p in atPaths.first { PathBytes.same($0.path, p) } }).first { hit }
            else { try NoteLookup.find(name, in: try index.handles(), workingFolder: workingFolder) }
        var info = stat()
        guard stat(vault.absolute(handle.path), &info) == 0,
              let read = NoteBytes.read(vault.absolute(handle.path)) else {
            throw SheafError("cannot read", path: handle.path, cause: "the file vanished or is unreadable")
        }
        let file = VaultFile(path: handle.path, size: Int(info.st_size),
                             mtimeNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                             inode: UInt64(info.st_ino))
        return CatalogNote(note: Note(path: handle.path, read: read), file: file)
    }

    /// Reads a note's current text for an edit, refusing notes Sheaf must never rewrite.
    func editableText(of note: CatalogNote) throws(SheafError) -> String {
        guard let read = NoteBytes.read(vault.absolute(note.path)) else {
            throw SheafError("cannot read", path: note.path, cause: "the file vanished or is unreadable")
        }
        try Self.refuseEdit(of: Note(path: note.path, read: read))
        return String(decoding: read.bytes, as: UTF8.self)
    }

    public func setConfig(_ key: String, _ value: String) throws(SheafError) {
        try config.set(key, value)
        try AtomicFile.write(config.text, to: vault.configPath)
    }
}
