// Attachments as commands see them: `attach` copies files beside a note and embeds them,
// `attachments` lists what the index knows with the notes that link to each, `thumb` finds or
// makes one thumbnail, `gc` drops thumbnails no attachment uses. Read commands only record
// attachments (the scan); the commands here make thumbnails.
import Foundation
import SheafCore
import SheafIndex
#if canImport(Glibc)
import Glibc
import SheafFiles
#endif

/// An attachment with the notes that link to it.
public struct Attachment: Sendable {
    public let record: AttachmentRecord
    /// The thumbnail file (absolute), when it is made and still there.
    public let thumbnail: String?
    /// Notes whose links resolve to this file, sorted.
    public let linkedFrom: [String]
}

/// One file `attach` copied.
public struct AttachedFile: Sendable {
    public let source: String
    public let path: String
    /// The text added to the note, e.g. `![[photo.jpg]]`.
    public let embed: String
}

/// What `sheaf attach` did.
public struct AttachReport: Sendable {
    public let note: String
    public let files: [AttachedFile]
    public let thumbnails: ThumbnailReport
}

extension VaultSession {
    /// Every attachment (or only those no note links to), with thumbnails and linking notes.
    public func attachments(orphansOnly: Bool = false) throws(SheafError) -> [Attachment] {
        let (index, _) = try freshIndex()
        let records = try index.attachments()
        let targets = LinkTargets(paths: try index.allPaths())
        var linkedFrom: [PathKey: Set<PathKey>] = [:]  // by bytes: an NFC/NFD twin is another file
        for link in try index.linksToAttachments() {
            let resolved = targets.resolve(link.target, from: link.notePath)
            if let resolved { linkedFrom[PathKey(resolved), default: []].insert(PathKey(link.notePath)) }
        }
        let store = thumbnailStore
        return records.compactMap { record in
            let notes = (linkedFrom[PathKey(record.path)] ?? []).map(\.path).sorted(by: PathBytes.precedes)
            if orphansOnly && !notes.isEmpty { return nil }
            let thumbnail = record.thumbnail.map { store.folder + "/" + $0 }
                .flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
            return Attachment(record: AttachmentRecord(record), thumbnail: thumbnail, linkedFrom: notes)
        }
    }

    /// The thumbnail of the attachment at `path` (relative to the working folder or the vault
    /// root, or absolute), made now if missing. Returns its absolute path.
    public func thumbnail(of path: String) throws(SheafError) -> String {
        let vaultPath = try attachmentPath(path)
        guard MediaType.isThumbnailed(vaultPath) else {
            throw SheafError("Sheaf makes no thumbnails of this kind of file", path: vaultPath,
                             hint: "thumbnails are made of JPEG, PNG, WebP, GIF, HEIC/AVIF, TIFF, SVG and PDF files")
        }
        if let missing = try makeThumbnails(forPaths: [vaultPath]).helperMissing { throw missing }
        let (index, _) = try freshIndex()
        guard let record = try index.attachments(at: [vaultPath]).first else {
            throw SheafError("not in the index", path: vaultPath, hint: "it may be ignored by .gitignore")
        }
        if let name = record.thumbnail, FileManager.default.fileExists(atPath: thumbnailStore.folder + "/" + name) {
            return thumbnailStore.folder + "/" + name
        }
        throw SheafError("no thumbnail", path: vaultPath, cause: record.error ?? "the file changed while it was read",
                         hint: record.error == nil ? "run the command again" : nil)
    }

    /// A file named on the command line, as a vault path: tried relative to the working folder,
    /// then to the vault root; absolute paths must lie inside the vault.
    func attachmentPath(_ name: String) throws(SheafError) -> String {
        var candidates: [String] = []
        if name.hasBytePrefix("/") {
            if let relative = vault.relative(name) { candidates.append(relative) }
        } else {
            if let folder = workingFolder, let p = VaultPath.normalize(VaultPath.join(folder, name)) { candidates.append(p) }
            if let p = VaultPath.normalize(name) { candidates.append(p) }
        }
        var isDirectory: ObjCBool = false
        for c in candidates where !c.isEmpty
            && FileManager.default.fileExists(atPath: vault.absolute(c), isDirectory: &isDirectory) && !isDirectory.boolValue {
            return c
        }
        throw SheafError("no such file in the vault", path: name)
    }

    /// Removes thumbnails that no attachment uses (after deletes and edits). Returns the count and bytes.
    public func collectThumbnailGarbage() throws(SheafError) -> (files: Int, bytes: Int) {
        let (index, _) = try freshIndex()
        return thumbnailStore.removeAll(except: try index.thumbnailsInUse())
    }

    /// Copies `files` (paths as given on the command line, inside or outside the vault) beside
    /// `note`, embeds them at the end of the note in the link style it already uses, indexes them
    /// and makes their thumbnails. A name already taken gets a number, never an overwrite.
    public func attach(_ files: [String], to note: CatalogNote, from workingDirectory: String) throws(SheafError) -> AttachReport {
        try withWriterLock(commits: false) { (proof) throws(SheafError) in
            try attach(files, to: note, from: workingDirectory, proof)
        }
    }

    private func attach(_ files: [String], to note: CatalogNote, from workingDirectory: String,
                        _ proof: borrowing WriterLock) throws(SheafError) -> AttachReport {
        guard !files.isEmpty else { throw SheafError("no file given", hint: "sheaf attach NOTE FILE...") }
        _ = try editableText(of: note)  // refuse before copying anything
        var sources: [String] = []
        for f in files {
            let absolute = Vault.absolutePath(f, from: workingDirectory)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw SheafError("no such file", path: f, hint: "attach files, not folders")
            }
            if VaultPath.isNote(absolute) {
                throw SheafError("this is a note, not an attachment", path: f, hint: "link to it with [[...]] instead")
            }
            // Through symlinks: only a regular file is copied (a FIFO would keep the copy waiting
            // for a writer; /dev/urandom would never end, or make an empty file).
            var info = stat()
            guard stat(absolute, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                throw SheafError("not a regular file", path: f, hint: "attach files, not FIFOs, sockets or devices")
            }
            sources.append(absolute)
        }
        // Obsidian's attachment folder and link style when the vault has .obsidian/app.json;
        // else beside the note, in the style the note's links already use.
        let settings = ObsidianSettings.load(vaultRoot: vault.root)
        guard let folder = settings.map({ $0.attachmentFolder(forNoteAt: note.path) }) ?? VaultPath.folder(note.path) else {
            throw SheafError("the attachment folder of .obsidian/app.json is outside the vault", path: settings?.attachmentFolderPath ?? "",
                             hint: "set attachmentFolderPath in Obsidian's Files and links settings")
        }
        if !folder.isEmpty {
            _ = try vaultFolder(folder)
            do { try FileManager.default.createDirectory(atPath: vault.absolute(folder), withIntermediateDirectories: true) }
            catch { throw SheafError("cannot make the attachment folder", path: folder, cause: error.localizedDescription) }
        }
        let wiki = settings.map { !$0.useMarkdownLinks } ?? Self.prefersWikiLinks(note.note.links)
        let format = settings?.newLinkFormat ?? "shortest"
        var attached: [AttachedFile] = []
        var copied: [String] = []
        var targets = LinkTargets(paths: try freshIndex().0.allPaths())
        for source in sources {
            let path: String
            if let inVault = vault.relative(source), VaultPath.folder(inVault) == folder {
                path = inVault  // already beside the note: embed it, copy nothing
            } else {
                path = try copy(source, into: folder, proof)
                copied.append(path)
                targets.add(path)
            }
            attached.append(AttachedFile(source: source, path: path, embed: Self.embed(path, wiki: wiki, format: format, targets: targets, from: note.path)))
        }
        try append(attached.map(\.embed).joined(separator: "\n"), to: note)
        let report = try makeThumbnails(forPaths: attached.map(\.path))
        return AttachReport(note: note.path, files: attached, thumbnails: report)
    }

    /// Wiki embeds unless the note's links are mostly markdown ones.
    static func prefersWikiLinks(_ links: [Link]) -> Bool {
        let wiki = links.filter(\.isWiki).count
        return wiki >= links.count - wiki
    }

    /// The embed of the file at `path` for the note at `notePath`: `format` is Obsidian's
    /// `newLinkFormat` (`shortest`: the name while it reaches the file; `relative`; `absolute`).
    static func embed(_ path: String, wiki: Bool, format: String = "shortest", targets: LinkTargets, from notePath: String) -> String {
        let name = VaultPath.fileName(path)
        let relative = VaultPath.relative(from: VaultPath.folder(notePath), to: path)
        var candidates: [String]
        switch format {
        case "absolute": candidates = [path]
        case "relative": candidates = [relative, path]
        default: candidates = [name, relative, path]
        }
        let chosen = candidates.first { targets.reaches($0, from: notePath, file: path) } ?? "/" + path
        // Characters that end a wiki-link cannot be written inside one.
        if wiki && !chosen.unicodeScalars.contains(where: { "[]|#^".unicodeScalars.contains($0) }) { return "![[" + chosen + "]]" }
        return "![](" + LinkRewriter.percentEncoded(chosen) + ")"
    }

    /// Copies a file into a vault folder under a free name (`photo.jpg`, `photo 2.jpg`, ...),
    /// through a temporary file and a hard link, which fails rather than replace a file that
    /// appeared meanwhile. A symlink is copied as the file it points to, under its own name.
    func copy(_ source: String, into folder: String, _ proof: borrowing WriterLock) throws(SheafError) -> String {
        _ = try VaultPathGuard.requireFolder(folder, in: vault.root)  // never through a symlinked folder
        let name = VaultPath.fileName(source)
        let contents = URL(fileURLWithPath: source).resolvingSymlinksInPath().path
        let ext = VaultPath.fileExtension(name)
        let stem = ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
        let temp = vault.absolute(VaultPath.join(folder, TemporaryName.fileName(scratch: true)))
        do { try FileManager.default.copyItem(atPath: contents, toPath: temp) }
        catch { throw SheafError("cannot copy", path: source, cause: error.localizedDescription) }
        defer { unlink(temp) }
        var n = 1
        while true {
            let candidate = VaultPath.join(folder, n == 1 ? name : VaultPath.fittedName(stem: stem, suffix: " \(n)", ext: ext))
            if link(temp, vault.absolute(candidate)) == 0 { return candidate }
            guard errno == EEXIST else {
                throw SheafError("cannot copy", path: candidate, cause: String(cString: strerror(errno)))
            }
            n += 1
        }
    }
}
