// `sheaf conflicts` and `sheaf resolve`: the conflict files a pull left beside notes, and
// settling them: keep the local note (drop the conflict file), take the remote version into the
// note, or keep both (the conflict file becomes an ordinary note beside the original).
import Foundation
import SheafCore
import SheafFiles
import SheafSync

/// A conflict file and the file it belongs to.
public struct ConflictEntry: Sendable, Equatable {
    public let path: String
    public let original: String
}

public enum ConflictKeep: String, Sendable, CaseIterable {
    case local, remote, both
}

/// What `resolve` changed.
public struct ResolveReport: Sendable {
    public let original: String
    public let removed: [String]
    /// Conflict files turned into ordinary notes (`--keep both`): old path, new path.
    public let kept: [(String, String)]
}

extension VaultSession {
    /// Every conflict file in the vault, sorted by path.
    public func conflicts() throws(SheafError) -> [ConflictEntry] {
        try freshIndex().0.allPaths().filter(ConflictName.isConflict).map { path in
            ConflictEntry(path: path, original: originalPath(ofConflict: path))
        }.sorted { $0.path < $1.path }
    }

    /// The conflict files among a pull's outcomes that it brought from the remote (not those this
    /// merge wrote, which are `.conflict` outcomes).
    func arrivedConflicts(_ outcomes: [VaultChange]) -> [ConflictEntry] {
        outcomes.filter { $0.kind != .conflict && $0.kind != .removed && ConflictName.isConflict($0.path) }
            .map { ConflictEntry(path: $0.path, original: originalPath(ofConflict: $0.path)) }
    }

    /// The file a conflict file belongs to: its `conflict-of` key, else its name without the
    /// `.conflict-...` part.
    func originalPath(ofConflict path: String) -> String {
        // Only as far as the size limit: a conflict file over it is named for its note, not read.
        if VaultPath.isNote(path), case .whole(let bytes)? = NoteBytes.read(vault.absolute(path)),
           let text = String(validating: bytes, as: UTF8.self), let block = NoteDocument(text: text).frontMatter,
           let original = (try? FrontMatter(parsing: block))?["conflict-of"]?.text, !original.isEmpty {
            // A share's merge names the note as its own repository does (share-relative, as every
            // member's vault mounts it elsewhere); it must stay inside the share.
            guard let share = shareList().share(holding: path) else { return original }
            if let inVault = VaultPath.normalize(share.vaultPath(original)), share.holds(inVault) { return inVault }
        }
        let stem = VaultPath.stem(path)
        let cut = stem.range(of: ".conflict-", options: .backwards).map { String(stem[..<$0.lowerBound]) } ?? stem
        let ext = VaultPath.fileExtension(path)
        return VaultPath.join(VaultPath.folder(path), ext.isEmpty ? cut : cut + "." + ext)
    }

    /// The conflicts of the file `name` names (a path, a note name, or one of its conflict files).
    public func conflicts(of name: String) throws(SheafError) -> (original: String, files: [ConflictEntry]) {
        let all = try conflicts()
        let direct = vaultPath(forArgument: name)
        let original: String
        if let direct, let hit = all.first(where: { PathBytes.same($0.path, direct) }) {
            original = hit.original
        } else if let direct, FileManager.default.fileExists(atPath: vault.absolute(direct)) || all.contains(where: { PathBytes.same($0.original, direct) }) {
            original = direct
        } else {
            let handles = try freshIndex().0.handles().filter { !ConflictName.isConflict($0.path) }
            original = try NoteLookup.find(name, in: handles, workingFolder: workingFolder).path
        }
        // By bytes: the conflict files of an NFC/NFD twin are the twin's, never settled with this note.
        let files = all.filter { PathBytes.same($0.original, original) }
        guard !files.isEmpty else {
            throw SheafError("no conflict files for this note", path: original, hint: "`sheaf conflicts` lists them all")
        }
        return (original, files)
    }

    /// Settles the conflicts of a note. What the note and its conflict files hold is committed
    /// first (an edit made since the conflict appeared would otherwise be replaced or deleted
    /// with no copy anywhere); the settling itself is committed by the next commit or sync.
    public func resolve(_ name: String, keep: ConflictKeep) throws(SheafError) -> ResolveReport {
        try withWriterLock { (proof) throws(SheafError) in try resolveLocked(name, keep: keep, proof) }
    }

    private func resolveLocked(_ name: String, keep: ConflictKeep, _ proof: borrowing WriterLock) throws(SheafError) -> ResolveReport {
        let (original, files) = try conflicts(of: name)
        // `conflict-of` comes from synced content: the note it names must pass the guard.
        let safeOriginal = try VaultPathGuard.require(original, in: vault.root, doing: "will not resolve into this path")
        // Regression: `--keep remote` replaced a note edited after its conflict appeared, and the
        // edit was in no commit, no file and no journal.
        try commitSnapshot(holding: original, proof)
        var removed: [String] = []
        var kept: [(String, String)] = []
        let writer = fileWriter(proof)
        switch keep {
        case .local:
            break
        case .remote:
            // The newest conflict file (names sort by the remote commit's time) becomes the note.
            let newest = files.map(\.path).max()!
            let bytes = try readBytes(newest)
            let current = try writer.read(safeOriginal)
            try writer.replace(safeOriginal, base: current, with: asOrdinary(bytes, path: newest, restoringIDOf: original))
        case .both:
            for file in files {
                let bytes = try readBytes(file.path)
                let target = try safePath(freeSibling(of: original, suffix: "conflict copy"))
                try writer.create(target, asOrdinary(bytes, path: file.path, restoringIDOf: nil))
                kept.append((file.path, target.path))
            }
        }
        for file in files {
            let path = try safePath(file.path)
            // Deleted only if it is still the file that was looked at (compared by identity).
            let state = FileState(bytes: nil, identity: FileIdentity.of(path: vault.absolute(path.path)))
            guard try writer.remove(path, base: state) else {
                throw SheafError("the conflict file changed while Sheaf resolved it; it was kept", path: file.path,
                                 hint: "look at it again, then run the command again")
            }
            removed.append(file.path)
        }
        try writer.finish()
        invalidate()
        return ResolveReport(original: original, removed: removed, kept: kept)
    }

    /// A conflict file's bytes without `conflict-of`; with the original note's `id` when asked.
    private func asOrdinary(_ bytes: [UInt8], path: String, restoringIDOf original: String?) throws(SheafError) -> [UInt8] {
        guard VaultPath.isNote(path), let text = String(validating: bytes, as: UTF8.self),
              var editor = try? FrontMatterEditor(text: text) else { return bytes }
        do throws(FrontMatterEditRefusal) {
            try editor.remove("conflict-of")
            if let original {
                let current = (try? readBytes(original)).flatMap { String(validating: $0, as: UTF8.self) }
                let id = current.flatMap { NoteDocument(text: $0).frontMatter }.flatMap { try? FrontMatter(parsing: $0) }?["id"]?.text
                if let id { try editor.set("id", to: id) } else { try editor.remove("id") }
            }
        } catch {
            throw SheafError("cannot make the conflict file an ordinary note", path: path, cause: error.description,
                             hint: "remove its `conflict-of` line in your editor, then run the command again")
        }
        var out = editor.text
        if let block = NoteDocument(text: out).frontMatter, block.lines.allSatisfy({ Lines.content($0).allSatisfy { $0 == " " || $0 == "\t" } }) {
            var doc = NoteDocument(text: out)
            doc.frontMatter = nil
            out = doc.rendered
        }
        return Array(out.utf8)
    }

    private func readBytes(_ path: String) throws(SheafError) -> [UInt8] {
        guard let bytes = try readFile(try safePath(path)).bytes else {
            throw SheafError("cannot read", path: path, cause: "the file vanished")
        }
        return bytes
    }

    /// `Name (suffix).ext`, `Name (suffix 2).ext`, ... beside `path`, not yet taken.
    private func freeSibling(of path: String, suffix: String) -> String {
        let folder = VaultPath.folder(path), stem = VaultPath.stem(path), ext = VaultPath.fileExtension(path)
        var n = 1
        while true {
            let label = n == 1 ? suffix : "\(suffix) \(n)"
            let candidate = VaultPath.join(folder, VaultPath.fittedName(stem: stem, suffix: " (\(label))", ext: ext))
            if !FileManager.default.fileExists(atPath: vault.absolute(candidate)) { return candidate }
            n += 1
        }
    }

    /// A command-line path argument as a vault path (relative to the working folder when inside
    /// the vault), nil when it points outside the vault.
    func vaultPath(forArgument argument: String) -> String? {
        let base = workingFolder.map { vault.absolute($0) } ?? vault.root
        let absolute = Vault.absolutePath(argument, from: base)
        if let relative = vault.relative(absolute), FileManager.default.fileExists(atPath: absolute) { return relative }
        return VaultPath.normalize(argument)
    }
}
