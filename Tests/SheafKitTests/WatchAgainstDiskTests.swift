// The watched index against a fresh rebuild: a real watcher (in process) follows bursts of the
// changes people and tools make (a new note, a save in place, a save by rename as `sed -i` and
// editors do, a delete, a move of a file or a folder, folders made a moment before something is
// moved into them), then a reader the watcher vouches for must see what a full rebuild of a copy
// of the vault sees. Short by default (a few seconds); SHEAF_LONG_TESTS=1 runs many more bursts.
// The bursts are random from a seed, printed on failure (SHEAF_WATCH_SEED replays its
// operations; the kernel's timing is the machine's).
import Foundation
import Glibc
import Testing
import SheafCore
import TestSupport
@testable import SheafKit

@Suite struct WatchAgainstDiskTests {
    /// A vault with a watcher running on it, and the copies its index is compared with.
    final class Watched {
        let vault: KitVault
        let stopper = WatchStopper()
        let reported: Reported

        init() throws {
            // The reader waits long for the watcher's answer (a loaded machine): what is compared
            // is the watcher's index, never a walk. Read once, when a watcher is first asked.
            setenv("SHEAF_WATCHER_WAIT_MS", "20000", 1)
            vault = try KitVault()
            var options = VaultWatchOptions()
            options.sync = false
            reported = startWatching(vault.root, options: options, stopper: stopper)
        }

        deinit { stopper.stop() }

        var root: String { vault.root }

        /// What the index says as a reader the watcher vouches for sees it; nil when the reader
        /// was not vouched for (it walked, which would hide what the watcher missed).
        func watchedIndex() throws -> [String]? {
            let reader = try vault.session()
            let told = EventLog()
            reader.subscribe(told.record)
            let seen = try Self.catalog(reader)
            return told.events.contains(.watcherVouched) ? seen : nil
        }

        /// What a full rebuild of a copy of the vault as it is now holds.
        func rebuiltIndex() throws -> [String] {
            let copy = vault.temp.path + "/rebuilt-\(UUID().uuidString)"
            #expect(runProcess("/bin/cp", ["-a", root, copy], in: vault.temp.path).status == 0)
            defer { try? FileManager.default.removeItem(atPath: copy) }
            for name in ["watcher", "index.sqlite", "index.sqlite-wal", "index.sqlite-shm"] {
                unlink(copy + "/.sheaf/" + name)  // (no watcher watches the copy)
            }
            let session = try VaultSession.open(explicit: copy, environment: [:], workingDirectory: copy)
            _ = try session.updateIndex(rebuild: true)
            return try Self.catalog(session)
        }

        /// The catalog as `ls`, `backlinks` and `search` read it, one line per row.
        static func catalog(_ session: VaultSession) throws -> [String] {
            let index = try session.freshIndex().0
            var lines = try index.summaries().map { "note \($0.path) | \($0.title) | \($0.size) | \($0.tags) | \($0.snippet)" }
            lines += try index.allPaths().map { "path \($0)" }
            lines += try index.allLinks().map { "link \($0.notePath) -> \($0.target)" }
            lines += try session.search("burst", limit: 10_000, snippets: false).hits.map { "found \($0.path)" }
            return lines.sorted()
        }

        /// Waits until the watcher caught up with the vault as it was when it started.
        func ready() -> Bool {
            reported.wait { $0.events.contains { if case .rescanned = $0 { true } else { false } } }
        }

        /// Compares the watched index with a rebuild; `context` says what led there.
        func expectMatchesRebuild(_ context: @autoclosure () -> String) throws {
            // A reader waits a bounded time for the watcher to vouch for the index, then walks on
            // its own (by design); on a machine whose cores are all busy that wait can run out, so
            // the reader asks again before the watched index is judged missing.
            var answer = try watchedIndex()
            for _ in 0..<3 where answer == nil { answer = try watchedIndex() }
            guard let watched = answer else {
                Issue.record("\(context()): the reader was not vouched for: \(reported.events.suffix(5))")
                return
            }
            let rebuilt = try rebuiltIndex()
            let extra = watched.filter { !rebuilt.contains($0) }, missing = rebuilt.filter { !watched.contains($0) }
            #expect(extra.isEmpty && missing.isEmpty,
                    "\(context()): the watched index holds \(extra) that a rebuild does not, and lacks \(missing)")
        }

        func sh(_ command: String) {
            let r = runProcess("/bin/sh", ["-c", command], in: root)
            #expect(r.status == 0, "\(command): \(r.stderr)")
        }
    }

    @Test func aNoteSavedByRenameThenDeletedOrMovedBeforeTheBatchIsAppliedLeavesNoRow() throws {
        let w = try Watched()
        try w.vault.write("# Gone\n\na burst of words\n", "gone.md")
        try w.vault.write("# Moved\n\na burst of words\n", "moved.md")
        #expect(w.ready(), "\(w.reported.events)")
        try w.expectMatchesRebuild("before")
        // sed -i writes a temporary file beside the note and renames it over the note.
        w.sh("sed -i s/words/letters/ gone.md && rm gone.md && sed -i s/words/letters/ moved.md && mv moved.md elsewhere.md")
        try w.expectMatchesRebuild("sed -i, then rm and mv")
        #expect(try w.watchedIndex()?.filter { $0.hasPrefix("path ") } == ["path elsewhere.md"])
    }

    @Test func aFolderMovedIntoAFolderMadeAMomentBeforeIsIndexedOnlyUnderItsNewPath() throws {
        let w = try Watched()
        for round in 0..<3 {
            try w.vault.write("# X\n\na burst [[Y]]\n", "Back\(round)/x.md")
            try w.vault.write("# Y\n\nsub burst\n", "Back\(round)/sub/y.md")
        }
        #expect(w.ready(), "\(w.reported.events)")
        for round in 0..<3 {
            // The new folders are watched only once their creation is read, after the move: the
            // move's second half is never seen, and the watch of the moved folder is found
            // again under its new path by the listing of the new folder.
            w.sh("mkdir -p deep\(round)/er && mv Back\(round) deep\(round)/er/")
            try w.expectMatchesRebuild("round \(round)")
        }
        let paths = try #require(try w.watchedIndex()).filter { $0.hasPrefix("path ") }
        #expect(paths == (0..<3).flatMap { ["path deep\($0)/er/Back\($0)/sub/y.md", "path deep\($0)/er/Back\($0)/x.md"] })
    }

    @Test func randomBurstsLeaveTheWatchedIndexAsARebuildWouldMakeIt() throws {
        let long = ProcessInfo.processInfo.environment["SHEAF_LONG_TESTS"] == "1"
        let seed = ProcessInfo.processInfo.environment["SHEAF_WATCH_SEED"].flatMap(Int.init) ?? Int.random(in: 0..<1_000_000)
        var rng = SeededRandom(seed: seed)
        let w = try Watched()
        var burst = Burst(root: w.root)
        for i in 0..<12 { burst.write("n\(i).md", &rng) }
        #expect(w.ready(), "seed \(seed): \(w.reported.events)")
        for round in 0..<(long ? 60 : 4) {
            let done = (0..<(long ? 80 : 30)).map { _ in burst.step(&rng) }
            try w.expectMatchesRebuild("seed \(seed), round \(round) after \(done)")
        }
    }
}

/// Random changes to a vault's files, made with the system calls editors and tools use.
struct Burst {
    let root: String
    private var counter = 0

    init(root: String) { self.root = root }

    private func absolute(_ path: String) -> String { root + "/" + path }

    /// The vault's notes and folders now (no dot-names).
    private func listing() -> (files: [String], folders: [String]) {
        var files: [String] = [], folders: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: root)!
        while let path = enumerator.nextObject() as? String {
            if (path as NSString).lastPathComponent.hasPrefix(".") { enumerator.skipDescendants(); continue }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: absolute(path), isDirectory: &isFolder) else { continue }
            if isFolder.boolValue { folders.append(path) } else { files.append(path) }
        }
        return (files.sorted(), folders.sorted())
    }

    private mutating func fresh(_ stem: String) -> String {
        counter += 1
        return "\(stem)\(counter)"
    }

    private func text<R: RandomNumberGenerator>(_ path: String, _ rng: inout R) -> String {
        let links = Bool.random(using: &rng) ? " [[n\(Int.random(in: 0..<12, using: &rng))]]" : ""
        return "# \((path as NSString).lastPathComponent)\n\na burst \(UInt32.random(in: 0...UInt32.max, using: &rng)) #t\(Int.random(in: 0..<3, using: &rng))\(links)\n"
    }

    /// Writes `path` in place (truncate and write, the same inode).
    mutating func write<R: RandomNumberGenerator>(_ path: String, _ rng: inout R) {
        try? FileManager.default.createDirectory(atPath: (absolute(path) as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        put(path, text(path, &rng))
    }

    private func put(_ path: String, _ text: String) {
        let fd = open(absolute(path), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        _ = Array(text.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// One random change; what it did, for the failure message.
    mutating func step<R: RandomNumberGenerator>(_ rng: inout R) -> String {
        let (files, folders) = listing()
        let folder = (folders + [""]).randomElement(using: &rng)!
        func inFolder(_ name: String, _ folder: String) -> String { folder.isEmpty ? name : folder + "/" + name }
        if Int.random(in: 0..<8, using: &rng) == 0 { usleep(UInt32.random(in: 0..<250_000, using: &rng)) }  // batches split
        switch Int.random(in: 0..<9, using: &rng) {
        case 0, 1:
            let path = inFolder(fresh("new") + ".md", folder)
            write(path, &rng)
            return "new \(path)"
        case 2:
            guard let path = files.randomElement(using: &rng) else { return "nothing" }
            write(path, &rng)
            return "save \(path)"
        case 3:
            // A save by rename: a visible (sed -i) or hidden (editors) temporary file beside the
            // note, renamed over it; half the time deleted or moved away at once.
            guard let path = files.randomElement(using: &rng) else { return "nothing" }
            let temp = inFolder((Bool.random(using: &rng) ? "sed" : ".") + fresh("tmp"), VaultPath.folder(path))
            put(temp, text(path, &rng))
            rename(absolute(temp), absolute(path))
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                unlink(absolute(path))
                return "save by rename, then rm \(path)"
            case 1:
                let to = inFolder(fresh("moved") + ".md", folder)
                rename(absolute(path), absolute(to))
                return "save by rename, then mv \(path) \(to)"
            default:
                return "save by rename \(path)"
            }
        case 4:
            guard let path = files.randomElement(using: &rng) else { return "nothing" }
            unlink(absolute(path))
            return "rm \(path)"
        case 5:
            guard let path = files.randomElement(using: &rng) else { return "nothing" }
            let to = inFolder(Bool.random(using: &rng) ? fresh("moved") + ".md" : (path as NSString).lastPathComponent, folder)
            rename(absolute(path), absolute(to))
            return "mv \(path) \(to)"
        case 6, 7:
            // A folder moved into another, half the time into nested folders made just now.
            guard let moved = folders.randomElement(using: &rng) else { return "nothing" }
            var into = folders.filter { $0 != moved && !$0.hasPrefix(moved + "/") }.randomElement(using: &rng) ?? ""
            if Bool.random(using: &rng) {
                into = inFolder(fresh("deep") + "/" + fresh("er"), into)
                try? FileManager.default.createDirectory(atPath: absolute(into), withIntermediateDirectories: true)
            }
            let to = inFolder(fresh("f"), into)
            rename(absolute(moved), absolute(to))
            return "mv \(moved) \(to)"
        default:
            if Bool.random(using: &rng), let gone = folders.randomElement(using: &rng) {
                try? FileManager.default.removeItem(atPath: absolute(gone))
                return "rm -r \(gone)"
            }
            let made = inFolder(fresh("made"), folder)
            for _ in 0..<Int.random(in: 1...3, using: &rng) { write(inFolder(fresh("in") + ".md", made), &rng) }
            return "mkdir \(made) with notes"
        }
    }
}
