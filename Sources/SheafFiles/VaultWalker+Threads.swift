// The walk over folders on every core, as git's preload-index stats in threads: the kernel's
// getdents and fstatat were most of a no-change scan. Each folder is listed on its own (by one
// thread), its findings kept apart, and the findings are put together afterwards in the order of
// the one-thread walk (a folder's own files and warnings, then each subfolder's, in readdir order),
// so no caller sees a difference. `isIgnored` (libgit2) and `excludes` are asked one at a time
// under one lock; `onTemporaryFile` is told on the calling thread, in walk order, at the end.
import Foundation
import SheafCore

/// What the walk found in one folder itself.
struct FolderListing {
    var files: [VaultFile] = []
    var warnings: [VaultWarning] = []
    var temporaryFiles: [String] = []
    /// The folders the walk enters, in readdir order.
    var subfolders: [String] = []
    /// The ignore rules' reach in the subfolders (this folder's .gitignore merged in).
    var childReach: IgnoreReach?
}

extension VaultWalker {
    /// The files and warnings of `root` and of every folder the walk enters below it.
    func walkTree(from root: String, reach: IgnoreReach?, realRoot: String) -> (files: [VaultFile], warnings: [VaultWarning]) {
        let walk = TreeWalk(walker: self, realRoot: realRoot, queue: FolderQueue(root: root, reach: reach))
        // A small vault (or a subtree a watcher rechecks) is listed on the calling thread alone;
        // the cores are counted only for a larger one (Foundation reads the cgroup's CPU quota
        // files for it: a twentieth of a search of 200 notes).
        walk.listFolders(unlessWaiting: self.threads == 1 ? nil : foldersBeforeThreads)
        if !walk.queue.isDone {
            let threads = self.threads ?? ProcessInfo.processInfo.activeProcessorCount
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                walk.listFolders(unlessWaiting: nil)
            }
        }
        let (files, warnings, temporaryFiles) = walk.queue.inWalkOrder()
        if let onTemporaryFile { temporaryFiles.forEach(onTemporaryFile) }
        return (files, warnings)
    }
}

/// One walk's threads' shared state. Unchecked: the walker's closures are not Sendable, and
/// the threads call `isIgnored` and `excludes` only under `questions`, never `onTemporaryFile`.
private final class TreeWalk: @unchecked Sendable {
    let walker: VaultWalker
    let realRoot: String
    let queue: FolderQueue
    let questions = NSLock()

    init(walker: VaultWalker, realRoot: String, queue: FolderQueue) {
        self.walker = walker
        self.realRoot = realRoot
        self.queue = queue
    }

    func listFolders(unlessWaiting threshold: Int?) {
        while let folder = queue.next(unlessWaiting: threshold) {
            queue.finish(folder.id, walker.list(folder.path, reach: folder.reach, realRoot: realRoot, questions: questions))
        }
    }
}

/// The folders still to list and the listings made, shared by the walk's threads.
final class FolderQueue: @unchecked Sendable {  // every field is read and written under `condition`
    struct Folder { let id: Int; let path: String; let reach: IgnoreReach? }

    private let condition = NSCondition()
    private var waiting: [Folder]
    private var listings: [FolderListing?] = [nil]
    private var children: [[Int]] = [[]]
    private var listing = 0  // folders taken and not finished: they may add more

    init(root: String, reach: IgnoreReach?) { waiting = [Folder(id: 0, path: root, reach: reach)] }

    /// The next folder to list; nil once every folder is listed, or while more than `threshold`
    /// are waiting (the caller then takes more threads). Waits while the others list folders,
    /// which may have subfolders: it never waits on a thread that is not working.
    func next(unlessWaiting threshold: Int?) -> Folder? {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty {
            if listing == 0 { return nil }
            condition.wait()
        }
        if let threshold, waiting.count > threshold { return nil }
        listing += 1
        return waiting.removeLast()  // depth first: the first subfolder was pushed last
    }

    func finish(_ id: Int, _ found: FolderListing) {
        condition.lock()
        var ids: [Int] = []
        for _ in found.subfolders {
            ids.append(listings.count)
            listings.append(nil)
            children.append([])
        }
        for (child, path) in zip(ids, found.subfolders).reversed() {
            waiting.append(Folder(id: child, path: path, reach: found.childReach))
        }
        children[id] = ids
        listings[id] = found
        listing -= 1
        condition.broadcast()
        condition.unlock()
    }

    var isDone: Bool { condition.lock(); defer { condition.unlock() }; return waiting.isEmpty && listing == 0 }

    /// Everything found, in the one-thread walk's order: a folder, then its subfolders' trees.
    func inWalkOrder() -> (files: [VaultFile], warnings: [VaultWarning], temporaryFiles: [String]) {
        condition.lock()
        defer { condition.unlock() }
        var files: [VaultFile] = []
        files.reserveCapacity(listings.reduce(0) { $0 + ($1?.files.count ?? 0) })
        var warnings: [VaultWarning] = []
        var temporaryFiles: [String] = []
        var stack = [0]
        while let id = stack.popLast() {
            guard let found = listings[id] else { continue }
            files += found.files
            warnings += found.warnings
            temporaryFiles += found.temporaryFiles
            stack += children[id].reversed()
        }
        return (files, warnings, temporaryFiles)
    }
}
