// What a long-running client (`sheaf serve`) keeps from one session to the next, so a request
// costs its own work only: one read-only pool of index connections (readers run side by side),
// opened once and again only when the file was replaced (a full build renamed over it), and
// what every page derives from the index (the set of its paths, the link resolver over them),
// made again only when the index changed. Whether it changed is asked of SQLite itself:
// `data_version` on a connection of its own moves with every commit of any other connection (the
// in-process watcher's, another command's), so no writer has to remember to say so, and nothing
// derived here can be older than the index a session was vouched for.
import Foundation
import SheafCore
import SheafIndex
import Synchronization

/// The index's paths at one moment: a set to check a URL's path against, and the resolver every
/// link of a page goes through.
public struct IndexedPaths: Sendable {
    /// Every indexed path (notes and attachments), in no particular order.
    public let all: [String]
    private let set: Set<PathKey>  // by bytes: a URL naming one twin never finds the other
    /// Links resolved as the index resolves them, over exactly these paths.
    public let targets: LinkTargets

    init(_ paths: [String]) {
        all = paths
        set = Set(paths.map(PathKey.init))
        targets = LinkTargets(paths: paths)
    }

    /// Whether the index holds exactly `path`.
    public func contains(_ path: String) -> Bool { set.contains(PathKey(path)) }
}

/// The index shared by the sessions of one server (`VaultSession(vault:workingDirectory:sharing:)`).
public final class SharedIndex: Sendable {
    let vault: Vault
    private let state = Mutex<Opened?>(nil)

    /// The open index: its readers, the connection that tells a change, the file they opened
    /// (its inode), and the paths derived at a `data_version`.
    private struct Opened: Sendable {
        let readers: NoteIndex
        let probe: NoteIndex
        let inode: UInt64
        var paths: (version: Int64, paths: IndexedPaths)?
    }

    public init(vault: Vault) {
        self.vault = vault
    }

    /// The shared readers, opened on first use and again when the index file was replaced; nil
    /// when there is no index that can answer yet.
    func readers() throws(SheafError) -> NoteIndex? {
        try opened()?.readers
    }

    /// The index's paths, derived again only when the index changed since they were made.
    /// `fallback` answers when there is no shared index to read (none built yet).
    func paths(or fallback: NoteIndex) throws(SheafError) -> IndexedPaths {
        guard let open = try opened() else { return IndexedPaths(try fallback.allPaths()) }
        // The version is read before the paths: what is derived is never older than its version.
        let version = try open.probe.dataVersion()
        if let cached = open.paths, cached.version == version { return cached.paths }
        let paths = IndexedPaths(try open.readers.allPaths())
        state.withLock { current in
            if current?.inode == open.inode { current?.paths = (version, paths) }
        }
        return paths
    }

    private func opened() throws(SheafError) -> Opened? {
        let file = vault.stateDirectory + "/index.sqlite"
        var info = stat()
        guard stat(file, &info) == 0 else { return nil }
        let inode = UInt64(info.st_ino)
        if let open = state.withLock({ $0 }), open.inode == inode { return open }
        guard let readers = try NoteIndex.openReaders(vault: vault),
              let probe = try NoteIndex.openForReading(vault: vault, queryOnly: true) else { return nil }
        let open = Opened(readers: readers, probe: probe, inode: inode)
        state.withLock { $0 = open }
        return open
    }
}
