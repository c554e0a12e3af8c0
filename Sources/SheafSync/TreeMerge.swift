// Merging two commits path by path against their ancestor: the changes of each side (renames found
// by git similarity, then by front-matter `id`), the rules of docs/merging.md ("Paths") for each
// combination (edit beats delete, an edit follows a rename, add/add merges against what both sides
// start with, overlapping edits leave a conflict file), and the merged tree built from the local
// side's tree. Files over the note size limit (10 MB) are never loaded: they are not merged by
// content but kept side by side, as binary files are. Nothing here touches the work tree.
import Foundation
import SheafCore
import SheafFiles
import SheafGit

/// What a pull did to one path of the local vault.
public struct PathOutcome: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        /// Changed on the remote only: the remote version was taken.
        case updated
        /// Changed on both sides and merged without overlap.
        case merged
        /// Changed on both sides with overlap: the note keeps the local side; `conflictFile` has the remote's.
        case conflict
        /// Deleted on one side, edited on the other: the edit came back.
        case resurrected
        /// Renamed or moved (`oldPath` is where it was).
        case renamed
        case added
        case deleted
    }
    public let kind: Kind
    public let path: String
    public var oldPath: String? = nil
    public var conflictFile: String? = nil
}

/// The merge of two commits, ready to be committed.
public struct TreeMergeResult: Sendable {
    public let tree: String
    public let outcomes: [PathOutcome]
    public var conflicts: Int { outcomes.filter { $0.kind == .conflict }.count }
}

struct TreeMerge {
    let repository: Repository
    /// The remote commit's time and device name the conflict files.
    let remoteTime: Date
    let remoteDevice: String

    /// One side's view of the base files: where each went and what it holds now.
    private struct Side {
        /// base path -> new path and file (nil file: deleted). Every table of paths here is keyed
        /// by PathKey: String keys compare by canonical equivalence, and an NFD twin the remote
        /// added was taken for the NFC note here and merged with it.
        var moved: [PathKey: (path: String, file: TreeFile?)] = [:]
        /// new paths with no base path
        var added: [PathKey: TreeFile] = [:]
    }

    /// Merges `ours` and `theirs` against `base` (nil: an empty ancestor).
    func merge(base: String?, ours: String, theirs: String) throws(GitError) -> TreeMergeResult {
        let o = try side(from: base, to: ours)
        let t = try side(from: base, to: theirs)
        let ourFiles = Dictionary(try repository.files(inCommit: ours).map { (PathKey($0.path), $0.file) }) { first, _ in first }
        var edits: [TreeEdit] = []
        var outcomes: [PathOutcome] = []
        var taken = Set(ourFiles.keys)
        // Our folders: a remote file cannot take a path that is a folder here (git's file/directory
        // conflict); put there, the tree kept the folder and the file was lost.
        var ourFolders = Set<PathKey>()
        for path in ourFiles.keys {
            var folder = VaultPath.folder(path.path)
            while !folder.isEmpty, ourFolders.insert(PathKey(folder)).inserted { folder = VaultPath.folder(folder) }
        }
        // A remote folder whose path is a file that stays here: its files go to a folder named
        // as a conflict file of that file (one per folder).
        var movedFolders: [PathKey: String] = [:]
        /// The nearest folder of `path` that is a file in the merge's result so far.
        func fileAbove(_ path: String) -> String? {
            var folder = VaultPath.folder(path)
            while !folder.isEmpty {
                if taken.contains(PathKey(folder)) { return folder }
                folder = VaultPath.folder(folder)
            }
            return nil
        }
        /// Whether a remote file can take `path`: it is neither one of our folders nor below a file.
        func free(_ path: String) -> Bool { !ourFolders.contains(PathKey(path)) && fileAbove(path) == nil }
        /// Where a remote file meant for `path` goes: `path`, or a conflict file beside it when
        /// `path` is one of our folders, or the same path in a conflict-named folder when a folder
        /// of it is one of our files (then also the outcome that says so). Put where a folder is,
        /// or below a file, the tree kept one and lost the other.
        func place(_ path: String, _ file: TreeFile) -> (path: String, conflict: PathOutcome?) {
            if let blocking = fileAbove(path) {
                let folder = movedFolders[PathKey(blocking)] ?? ConflictFile.path(for: blocking, time: remoteTime, device: remoteDevice) { candidate in
                    taken.contains(PathKey(candidate)) || ourFolders.contains(PathKey(candidate))
                }
                movedFolders[PathKey(blocking)] = folder
                let moved = folder + String(decoding: path.utf8.dropFirst(blocking.utf8.count), as: UTF8.self)
                return (moved, PathOutcome(kind: .conflict, path: path, conflictFile: moved))
            }
            guard ourFolders.contains(PathKey(path)) else { return (path, nil) }
            let conflictPath = ConflictFile.path(for: path, time: remoteTime, device: remoteDevice) { candidate in
                (taken.contains(PathKey(candidate)) && ourFiles[PathKey(candidate)]?.blob != file.blob) || ourFolders.contains(PathKey(candidate))
            }
            return (conflictPath, PathOutcome(kind: .conflict, path: path, conflictFile: conflictPath))
        }

        // Files the ancestor had, touched by the remote side.
        for (baseKey, theirChange) in t.moved.sorted(by: { PathBytes.precedes($0.key.path, $1.key.path) }) {
            let basePath = baseKey.path
            let ourChange = o.moved[baseKey]
            let baseFile = try repository.file(at: basePath, inCommit: base!)
            let ourPath = ourChange?.path ?? basePath
            let ourFile = ourChange == nil ? baseFile : ourChange!.file
            guard let theirFile = theirChange.file else {
                // Deleted there.
                if ourFile == nil { continue }
                if ourFile == baseFile && PathBytes.same(ourPath, basePath) {
                    edits.append(.remove(path: ourPath)); taken.remove(PathKey(ourPath))
                    outcomes.append(PathOutcome(kind: .deleted, path: ourPath))
                }
                // Our edit (or rename) stays: edit beats delete; nothing to change locally.
                continue
            }
            // An edit follows the remote's rename, unless we renamed it too or the new path is
            // taken here by another file.
            let followsRename = PathBytes.same(ourPath, basePath) && ourFiles[PathKey(theirChange.path)] == nil && free(theirChange.path)
            let resultPath = followsRename ? theirChange.path : ourPath
            guard let ourFile else {
                // Deleted here, edited (or only moved) there: the edit comes back.
                if theirFile.blob == baseFile?.blob { continue }
                let (target, conflict) = place(resultPath, theirFile)
                edits.append(.put(path: target, blob: theirFile.blob, mode: theirFile.mode)); taken.insert(PathKey(target))
                outcomes.append(conflict ?? PathOutcome(kind: .resurrected, path: resultPath))
                continue
            }
            let merged = try mergeFile(path: resultPath, base: baseFile, ours: ourFile, theirs: theirFile,
                                       ourFiles: ourFiles, taken: &taken)
            if !PathBytes.same(resultPath, ourPath) {
                edits.append(.remove(path: ourPath)); taken.remove(PathKey(ourPath)); taken.insert(PathKey(resultPath))
                outcomes.append(PathOutcome(kind: .renamed, path: resultPath, oldPath: ourPath))
            }
            if merged.file != ourFile || !PathBytes.same(resultPath, ourPath) {
                edits.append(.put(path: resultPath, blob: merged.file.blob, mode: merged.file.mode))
            }
            edits += merged.extra
            if let outcome = merged.outcome, !(outcome.kind == PathOutcome.Kind.updated && !PathBytes.same(resultPath, ourPath) && theirFile.blob == baseFile?.blob) {
                outcomes.append(outcome)
            }
        }

        // Files the remote side added.
        for (key, theirFile) in t.added.sorted(by: { PathBytes.precedes($0.key.path, $1.key.path) }) {
            let path = key.path
            if let ourFile = ourFiles[key] {
                let merged = try mergeFile(path: path, base: nil, ours: ourFile, theirs: theirFile,
                                           ourFiles: ourFiles, taken: &taken)
                if merged.file != ourFile { edits.append(.put(path: path, blob: merged.file.blob, mode: merged.file.mode)) }
                edits += merged.extra
                if let outcome = merged.outcome { outcomes.append(outcome) }
            } else {
                let (target, conflict) = place(path, theirFile)
                edits.append(.put(path: target, blob: theirFile.blob, mode: theirFile.mode)); taken.insert(PathKey(target))
                outcomes.append(conflict ?? PathOutcome(kind: .added, path: path))
            }
        }
        let tree = try repository.tree(applying: edits, toCommit: ours)
        return TreeMergeResult(tree: tree, outcomes: outcomes.sorted { $0.path < $1.path })
    }

    /// Merges one file's contents: the file the path holds after the merge, the conflict file
    /// to add when the edits overlapped, and the outcome (nil when the local file stays as it is).
    private func mergeFile(path: String, base: TreeFile?, ours: TreeFile, theirs: TreeFile,
                           ourFiles: [PathKey: TreeFile], taken: inout Set<PathKey>)
        throws(GitError) -> (file: TreeFile, extra: [TreeEdit], outcome: PathOutcome?) {
        if ours.blob == theirs.blob || theirs == base { return (ours, [], nil) }
        if ours == base { return (theirs, [], PathOutcome(kind: .updated, path: path)) }
        var large = try isLarge(ours)
        if !large { large = try isLarge(theirs) }
        if !large, let base { large = try isLarge(base) }
        // A symlink on one side and a file on the other (or a submodule): two kinds of thing, not
        // two texts. Line-merged, a link's target and a note made a "symlink" with a line break
        // in its target, which the tree's safety check then left out: both sides were lost.
        let otherKinds = ours.mode != theirs.mode && (ours.isSymlink || theirs.isSymlink || ours.mode == 0o160000 || theirs.mode == 0o160000)
        if large || otherKinds {
            // Not merged by content, as binary files are not: the local file keeps the path and the
            // remote one, as it is, becomes the conflict file. Its bytes are never loaded.
            let conflictPath = ConflictFile.path(for: path, time: remoteTime, device: remoteDevice) { candidate in
                taken.contains(PathKey(candidate)) && ourFiles[PathKey(candidate)]?.blob != theirs.blob
            }
            taken.insert(PathKey(conflictPath))
            return (ours, [.put(path: conflictPath, blob: theirs.blob, mode: theirs.mode)],
                    PathOutcome(kind: .conflict, path: path, conflictFile: conflictPath))
        }
        let isNote = VaultPath.isNote(path)
        let sides = (base: try base.map { (f) throws(GitError) in try repository.blobBytes(f.blob) },
                     ours: try repository.blobBytes(ours.blob), theirs: try repository.blobBytes(theirs.blob))
        let result: FileMerge
        do {
            // The list of shares keeps every line of both sides where they overlap: two devices
            // that shared at once both keep their share (a list in a conflict file would leave
            // a share's files to the vault's repository).
            result = try NoteMerge.merge(base: sides.base, ours: sides.ours, theirs: sides.theirs, isNote: isNote,
                                         keepBoth: path == ShareList.fileName)
        } catch {
            throw GitError(function: "git_merge_file", code: .other(-1), message: error.message)
        }
        let merged = TreeFile(blob: try repository.createBlob(result.merged), mode: ours.mode)
        guard let remote = result.remote, path != ShareList.fileName else { return (merged, [], PathOutcome(kind: .merged, path: path)) }
        let content = try repository.createBlob(ConflictFile.content(remote: remote, notePath: path, isNote: isNote))
        // A conflict file already holding these bytes (a merge redone after a crash) is reused.
        let conflictPath = ConflictFile.path(for: path, time: remoteTime, device: remoteDevice) { candidate in
            taken.contains(PathKey(candidate)) && ourFiles[PathKey(candidate)]?.blob != content
        }
        taken.insert(PathKey(conflictPath))
        return (merged, [.put(path: conflictPath, blob: content, mode: theirs.mode)],
                PathOutcome(kind: .conflict, path: path, conflictFile: conflictPath))
    }

    /// One side's changes from `base` (nil: empty) to `commit`, renames paired by git similarity
    /// and then by front-matter `id`.
    private func side(from base: String?, to commit: String) throws(GitError) -> Side {
        var side = Side()
        var deleted: [PathKey: TreeFile] = [:]
        for change in try repository.changes(from: base, to: commit) {
            switch change.kind {
            case .added: side.added[PathKey(change.path)] = change.newFile
            case .deleted: deleted[PathKey(change.oldPath)] = change.oldFile
            case .edited, .renamed: side.moved[PathKey(change.oldPath)] = (change.path, change.newFile)
            }
        }
        // Notes renamed and heavily edited look like a delete and an add: pair them by id.
        if !deleted.isEmpty && !side.added.isEmpty {
            var addedByID: [String: PathKey] = [:]
            for (path, file) in side.added where VaultPath.isNote(path.path) {
                if let id = try noteID(file) { addedByID[id] = path }
            }
            for (path, file) in deleted where VaultPath.isNote(path.path) {
                guard let id = try noteID(file), let newPath = addedByID.removeValue(forKey: id),
                      let newFile = side.added.removeValue(forKey: newPath) else { continue }
                side.moved[path] = (newPath.path, newFile)
                deleted[path] = nil
            }
        }
        for path in deleted.keys { side.moved[path] = (path.path, nil) }
        return side
    }

    /// Whether a file is over the note size limit: such files are never read whole.
    private func isLarge(_ file: TreeFile) throws(GitError) -> Bool {
        try repository.blobSize(file.blob) > Note.sizeLimit
    }

    private func noteID(_ file: TreeFile) throws(GitError) -> String? {
        // A note over the size limit has no id Sheaf reads (it is indexed by path and title only).
        guard try !isLarge(file), let text = NoteMerge.text(try repository.blobBytes(file.blob)),
              let block = NoteDocument(text: text).frontMatter,
              let id = (try? FrontMatter(parsing: block))?["id"]?.text, !id.isEmpty else { return nil }
        return id
    }
}
