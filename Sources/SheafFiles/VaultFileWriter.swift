// The one write path for a user's files (ARCHITECTURE.md, "One write rule": no edit is ever lost).
// Every command that changes a note or an attachment (new, append, tags, mv, resolve, restore,
// attach, the work-tree update of a pull) writes through here, and only to a `SafePath`.
//
// A replacement goes: temporary file beside the target, fsync; then, immediately before the
// swap, the target's identity is compared with the one Sheaf read. If an editor saved meanwhile,
// the change is made again on the editor's bytes (`redo`) or merged three ways, and the loop
// starts over: nothing is renamed over a version Sheaf has not seen. The swap itself is
// `renameat2(RENAME_EXCHANGE)`, so the version it displaced is still in hand afterwards: if an
// editor slipped a save in between the check and the swap, a second exchange puts that save back
// at once (an editor that reloads must not find Sheaf's version without it), and the loop starts
// over on it. A save made in the instant between the two exchanges comes back to Sheaf in place
// of its own version and is merged into every further try.
// A writer that had the file open and writes in place just after the swap writes into the
// displaced inode; `finish()` looks at every displaced inode once more before the command ends.
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SheafCore

/// How a replacement ended.
public enum WriteOutcome: Sendable, Equatable {
    /// The file now holds what was asked.
    case written
    /// The file had changed since it was read; the change was made on (or merged with) the new bytes.
    case reconciled
    /// Nothing needed writing (the change was already there, or `redo` declined).
    case unchanged
}

public final class VaultFileWriter {
    /// Merges Sheaf's change into a file someone else changed: `base` is the version Sheaf's
    /// change started from, `current` what the file holds now, `wanted` Sheaf's version. The
    /// result must keep `current`'s edits (they are the user's).
    public typealias Merge = (_ path: String, _ base: [UInt8]?, _ current: [UInt8], _ wanted: [UInt8]) -> [UInt8]
    /// Makes Sheaf's change again on the bytes the file holds now (nil: the file is gone).
    /// Returning nil means nothing is to be written.
    public typealias Redo = (_ current: [UInt8]?) throws(SheafError) -> [UInt8]?

    /// Keeps a version someone saved in a new file beside `path` and returns that file's path.
    /// Called only when Sheaf gives up a write after its swap displaced a save it had not seen:
    /// those bytes were then nowhere else. Kit keeps them as a conflict file.
    public typealias KeepAside = (_ writer: VaultFileWriter, _ path: SafePath, _ bytes: [UInt8]) throws(SheafError) -> String

    public let root: String
    let merge: Merge
    private let keepAside: KeepAside?
    /// Called between the identity check and the swap (tests: a save that lands just there).
    var beforeSwap: ((SafePath) -> Void)?
    /// Called just after the swap (tests: a save that lands before a displaced save is put back).
    var afterSwap: ((SafePath) -> Void)?
    /// How long a replacement keeps trying against a file that keeps changing (seconds). Each
    /// try redoes the change (a merge) on the new bytes, while the writer holds `.sheaf/lock`.
    static let giveUpAfter: Double = 30
    private var displaced: [Displaced] = []
    /// Paths where a version someone saved during the write was folded in.
    public private(set) var reconciledPaths: [String] = []
    /// Called with the bytes a file held when a `replace` began, once it is done: Kit keeps them
    /// for the index, which deletes the row it made of that version with its text (FTSDeletes).
    public var replaced: (([UInt8]) -> Void)?
    /// How many displaced inodes are kept open for the late check before the oldest are checked.
    private let maxOpen = 128

    public init(root: String, merge: @escaping Merge, keepAside: KeepAside? = nil) {
        self.root = root
        self.merge = merge
        self.keepAside = keepAside
    }

    /// A command that threw before `finish()` (a give-up, a refused note, a failure further on)
    /// still has its displaced files looked at: a late write into one is folded in, not dropped.
    deinit { try? finish() }

    /// A version Sheaf swapped out, kept open until `finish()`.
    struct Displaced {
        let fd: Int32
        let path: SafePath
        let identity: FileIdentity
        /// What Sheaf put in its place, and how to redo Sheaf's change on a late edit.
        let written: FileState
        let redo: Redo
        /// The bytes it held when Sheaf let it go (nil: not known, or too large to keep).
        let original: [UInt8]?
    }

    /// A version someone saved that is in no file yet: its bytes, and the version it was made
    /// from when known (its own lines are the ones looked for in the file afterwards).
    struct Owed {
        let bytes: [UInt8]
        let base: [UInt8]?
    }

    // MARK: - Reading

    /// The bytes and identity of a file, never through a symlink. Absent: `.absent`. A file
    /// larger than `limit` bytes is refused before any of it is read (memory stays bounded).
    public func read(_ path: SafePath, limit: Int = Note.sizeLimit) throws(SheafError) -> FileState {
        try Self.read(path, root: root, limit: limit)
    }

    /// `read` for a reader that writes nothing (no writer needed): the same checks.
    /// Vault files are opened without blocking: opening a FIFO found where a note was waits for a
    /// writer that never comes, and the check below refuses it instead (for a regular file the
    /// flag changes nothing).
    public static func read(_ path: SafePath, root: String, limit: Int = Note.sizeLimit) throws(SheafError) -> FileState {
        let full = root + "/" + path.path
        let fd = open(full, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return .absent }
            if errno == ELOOP { throw SheafError("will not read through a symlink", path: path.path) }
            throw SheafError("cannot read", path: path.path, cause: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        guard let identity = FileIdentity.of(descriptor: fd) else {
            throw SheafError("cannot read", path: path.path, cause: String(cString: strerror(errno)))
        }
        guard identity.isRegularFile else { throw SheafError("not a file", path: path.path) }
        guard identity.size <= Int64(limit) else {
            throw SheafError("will not change this file", path: path.path, cause: "it is larger than \(limit / 1_000_000) MB",
                             hint: "edit it with another program")
        }
        return FileState(bytes: try Self.readAll(fd, path: path.path), identity: identity)
    }

    static func readAll(_ fd: Int32, path: String) throws(SheafError) -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var offset: off_t = 0
        while true {
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SheafError("cannot read", path: path, cause: String(cString: strerror(errno)))
            }
            if n == 0 { return out }
            out += chunk[0..<n]
            offset += off_t(n)
        }
    }

    /// Starts reading `paths` into memory without waiting (POSIX_FADV_WILLNEED), for a batch
    /// that reads them one after the other next: a note not read for a while is on disk, and a
    /// pull that compares 100 such notes waited ~1 ms for each read in turn (10k-note benchmark).
    /// Only regular files are opened (a FIFO's writer would see a reader come and go).
    public static func readAhead(_ paths: [SafePath], root: String) {
        let willNeed: Int32 = 3  // POSIX_FADV_WILLNEED
        for path in paths where FileIdentity.of(path: root + "/" + path.path)?.isRegularFile == true {
            let fd = open(root + "/" + path.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { continue }
            _ = posix_fadvise(fd, 0, 0, willNeed)  // a hint: on anything else it does nothing
            close(fd)
        }
    }

    // MARK: - Writing ahead

    /// A file's new bytes written ahead into a hidden temporary file beside it, with the disk
    /// write started (`sync_file_range`) but not waited for. A batch prepared first and replaced
    /// next waits for the disk once for the lot, where one file after the other waited for each.
    /// `replace(..., prepared:)` still syncs it before the swap, so a file in place is whole
    /// whatever happens to the machine; a preparation not used is deleted when it is let go.
    public final class Prepared {
        let temp: String
        let fd: Int32
        /// The bytes written (a replacement uses the preparation only for exactly these).
        public let bytes: [UInt8]
        let mode: mode_t
        var taken = false

        init(temp: String, fd: Int32, bytes: [UInt8], mode: mode_t) {
            self.temp = temp
            self.fd = fd
            self.bytes = bytes
            self.mode = mode
        }

        deinit {
            guard !taken else { return }
            unlink(temp)
            close(fd)
        }
    }

    /// Writes `bytes` ahead for a later `replace` of `path` (see `Prepared`). `mode` is the mode
    /// the replaced file will have.
    public func prepare(_ path: SafePath, _ bytes: [UInt8], mode: mode_t) throws(SheafError) -> Prepared {
        try VaultPathGuard.makeFolders(of: path, in: root)
        let temp = try writeTemporary(bytes, beside: root + "/" + path.path, mode: mode, path: path.path, sync: false)
        return Prepared(temp: temp.path, fd: temp.fd, bytes: bytes, mode: mode)
    }

    // MARK: - Writing

    /// Writes a new file; never replaces one (a file that appeared meanwhile is an error).
    public func create(_ path: SafePath, _ bytes: [UInt8], mode: mode_t = 0o644) throws(SheafError) {
        try VaultPathGuard.makeFolders(of: path, in: root)
        let full = root + "/" + path.path
        let temp = try writeTemporary(bytes, beside: full, mode: mode, path: path.path)
        defer { unlink(temp.path); close(temp.fd) }
        guard Self.renameat2(temp.path, full, Self.noReplace) == 0 else {
            let failure = errno
            if failure == EEXIST {
                throw SheafError("a file is already there", path: path.path, hint: "Sheaf never overwrites; pick another name")
            }
            if failure == EINVAL || failure == ENOSYS {  // a file system without renameat2 flags
                guard link(temp.path, full) == 0 else {
                    throw SheafError("a file is already there", path: path.path, cause: String(cString: strerror(errno)))
                }
                return
            }
            throw SheafError("cannot write", path: path.path, cause: String(cString: strerror(failure)))
        }
    }

    /// Replaces the file at `path`, which was `base` when Sheaf read it, with `wanted`. If the
    /// file changed since, `redo` makes the change again on what is there now; without `redo`
    /// the change is merged three ways (base, what is there now, wanted). `base` absent means
    /// the file is expected not to exist (a file that appeared is merged, never overwritten).
    /// `prepared`, when it holds `wanted` with the mode the file gets, is swapped in instead
    /// of a temporary file written here.
    @discardableResult
    public func replace(_ path: SafePath, base: FileState, with wanted: [UInt8], mode: UInt32? = nil,
                        redo: Redo? = nil, prepared: Prepared? = nil) throws(SheafError) -> WriteOutcome {
        let initialBase = base.bytes
        let merge = self.merge
        let mergeIn: Redo = { (current) throws(SheafError) in
            guard let current else { return wanted }  // deleted meanwhile: the change comes back
            return merge(path.path, initialBase, current, wanted)
        }
        var chosen = mergeIn
        if let redo { chosen = redo }
        let outcome = try replace(path, expected: base, wanted: wanted, mode: mode, redo: chosen, reconciled: false,
                                  prepared: prepared, owed: [])
        if let initialBase { replaced?(initialBase) }
        return outcome
    }

    /// `owed`: versions someone saved that are in no file (a swap displaced them, or they were
    /// written into a displaced file), so far only folded into `wanted` in memory; if the write
    /// gives up, they are kept beside the file (never dropped).
    private func replace(_ path: SafePath, expected start: FileState, wanted first: [UInt8], mode: UInt32?,
                         redo first_redo: @escaping Redo, reconciled startReconciled: Bool,
                         prepared: Prepared? = nil, owed firstOwed: [Owed]) throws(SheafError) -> WriteOutcome {
        var owed = firstOwed
        do {
            let outcome = try replacing(path, expected: start, wanted: first, mode: mode, redo: first_redo,
                                        reconciled: startReconciled, prepared: prepared, owed: &owed)
            // Saves that were in Sheaf's hands only went in through a merge, and a merge keeps one
            // side where both changed a front-matter key: a save whose lines are not all in the
            // file now is kept beside it too (at worst a conflict file too many).
            if !owed.isEmpty {
                let now = Set(Self.lines((try? Self.read(path, root: root).bytes) ?? nil ?? []))
                for version in owed {
                    let before = Set(Self.lines(version.base ?? []))
                    guard !Self.lines(version.bytes).allSatisfy({ now.contains($0) || before.contains($0) }) else { continue }
                    if let keepAside { _ = try keepAside(self, path, version.bytes) } else { _ = try keepBeside(path, version.bytes) }
                }
            }
            return outcome
        } catch {
            // Whatever ended the write (it gave up, the editor's save does not parse, the file
            // became a symlink), saves in Sheaf's hands only are kept beside the file first.
            guard !owed.isEmpty else { throw error }
            var kept: [String] = []
            for bytes in owed.map(\.bytes) {
                if let keepAside { kept.append(try keepAside(self, path, bytes)) } else { kept.append(try keepBeside(path, bytes)) }
            }
            var failure = error
            failure.hint = "\(kept.count == 1 ? "a version" : "versions") saved during the write \(kept.count == 1 ? "is" : "are") kept in \(kept.joined(separator: ", ")); nothing was lost"
            throw failure
        }
    }

    /// Without a `KeepAside`: `<stem>.unsaved-<pid>-<n><ext>` beside the file, never over one.
    private func keepBeside(_ path: SafePath, _ bytes: [UInt8]) throws(SheafError) -> String {
        let ext = VaultPath.fileExtension(path.path)
        let stem = VaultPath.stem(path.path)
        for n in 1...1000 {
            let name = VaultPath.fittedName(stem: stem, suffix: ".unsaved-\(getpid())-\(n)", ext: ext)
            let candidate = VaultPath.join(VaultPath.folder(path.path), name)
            guard case .success(let safe) = VaultPathGuard.check(candidate, in: root),
                  FileIdentity.of(path: root + "/" + candidate) == nil else { continue }
            try create(safe, bytes)
            return candidate
        }
        throw SheafError("cannot keep a version saved during the write", path: path.path)
    }

    func finishOutcome(_ path: SafePath, _ reconciled: Bool) -> WriteOutcome {
        if reconciled { reconciledPaths.append(path.path) }
        return reconciled ? .reconciled : .written
    }

    /// Moves a file to a path where nothing is; never replaces a file. A move that changes only
    /// the case of the name may land on the same file on a case-insensitive file system.
    public func move(_ from: SafePath, to target: SafePath) throws(SheafError) {
        try VaultPathGuard.makeFolders(of: target, in: root)
        let source = root + "/" + from.path, destination = root + "/" + target.path
        // The file itself under another case (a case-insensitive file system), never a file
        // whose name merely compares equal (an NFC/NFD or case twin: another file, kept).
        let itself = FileIdentity.sameFile(source, destination)
        var rc = Self.renameat2(source, destination, Self.noReplace)
        var failure = errno
        if rc != 0 && (failure == EINVAL || failure == ENOSYS) && !itself && FileIdentity.of(path: destination) != nil {
            failure = EEXIST  // no rename flags on this file system: checked by hand
        } else if rc != 0 && (failure == EINVAL || failure == ENOSYS || (failure == EEXIST && itself)) {
            rc = rename(source, destination)
            failure = errno
        }
        guard rc == 0 else {
            if failure == EEXIST {
                throw SheafError("a file is already there", path: target.path, hint: "Sheaf never overwrites")
            }
            throw SheafError("cannot move", path: from.path, cause: String(cString: strerror(failure)))
        }
    }

    /// Removes the file at `path` if it still is `base`. Returns false (and keeps the file)
    /// when it changed since it was read: an edit beats a delete.
    @discardableResult
    public func remove(_ path: SafePath, base: FileState) throws(SheafError) -> Bool {
        let full = root + "/" + path.path
        guard let now = FileIdentity.of(path: full) else { return true }
        if !now.matches(base.identity) {
            let current = try currentState(full, path: path.path)
            guard current.bytes == base.bytes else { return false }
        }
        // Move it aside first, so a save that lands meanwhile is seen, not deleted.
        let aside = Self.temporaryName(beside: full)
        guard rename(full, aside) == 0 else {
            if errno == ENOENT { return true }
            throw SheafError("cannot delete", path: path.path, cause: String(cString: strerror(errno)))
        }
        let fd = open(aside, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        let identity = fd >= 0 ? FileIdentity.of(descriptor: fd) : nil
        if fd >= 0 { close(fd) }
        if let identity, identity.matches(now) || identity.matches(base.identity) {
            unlink(aside)
            return true
        }
        // It changed between the check and the move: put it back (never over a new file).
        if Self.renameat2(aside, full, Self.noReplace) != 0 { _ = link(aside, full) }
        unlink(aside)
        return false
    }

    /// Looks once more at every version Sheaf swapped out during this command: a writer that
    /// had the file open and wrote in place after the swap wrote there, and that edit is folded
    /// into the file now. Call before the command ends.
    /// Every displaced file is looked at, also after one failed (the first failure is thrown at
    /// the end), and so are the files displaced by settling them.
    public func finish() throws(SheafError) {
        var failure: SheafError?
        var rounds = 0
        while !displaced.isEmpty && rounds < 10 {
            rounds += 1
            let pending = displaced
            displaced = []
            for d in pending {
                do { try settle(d) } catch { if failure == nil { failure = error } }
            }
        }
        for d in displaced { close(d.fd) }
        displaced = []
        if let failure { throw failure }
    }

    func retire(_ d: Displaced) {
        displaced.append(d)
        if displaced.count > maxOpen {
            let oldest = displaced.removeFirst()
            try? settle(oldest)
        }
    }

    private func settle(_ d: Displaced) throws(SheafError) {
        defer { close(d.fd) }
        Self.waitUntilClosedElsewhere(d.fd)
        guard let now = FileIdentity.of(descriptor: d.fd), !(now.matches(d.identity) && Self.holds(d.fd, d.original)) else { return }
        let late = try Self.readAll(d.fd, path: d.path.path)
        // The late save is in this file only: even when Sheaf's change needs no redoing on it
        // (already there) or cannot be made on it (a half-typed front-matter), it goes in.
        let again = ((try? d.redo(late)) ?? nil) ?? late
        let merge = self.merge
        let mine = d.written.bytes
        _ = try replace(d.path, expected: d.written, wanted: again, mode: nil, redo: { (current) throws(SheafError) in
            guard let current else { return again }
            return merge(d.path.path, mine, current, again)
        }, reconciled: true, owed: [Owed(bytes: late, base: d.original)])
    }

    // MARK: - Helpers

    /// The non-empty lines of a text, without their line endings.
    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(separator: UInt8(ascii: "\n")).map { $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0 }.filter { !$0.isEmpty }
    }

    /// Bytes worth keeping with a displaced file for the byte comparison (`holds` compares up to 1 MB).
    static func kept(_ bytes: [UInt8]?) -> [UInt8]? {
        guard let bytes, bytes.count <= 1 << 20 else { return nil }
        return bytes
    }

    /// Whether the open file holds `bytes` (nil: not known, taken as yes). The identity alone
    /// misses an editor's same-size save in place within one tick of the file system's clock
    /// (ext4 stamps mtimes at a few milliseconds' granularity), such as a checkbox ticked.
    static func holds(_ fd: Int32, _ bytes: [UInt8]?) -> Bool {
        guard let bytes, bytes.count <= 1 << 20 else { return true }
        guard let now = try? readAll(fd, path: "") else { return false }
        return now == bytes
    }

    /// Waits (at most 2 s) until no other process holds the displaced file open. A writer that
    /// opened the file before Sheaf's swap (`echo >> note`) writes into the displaced inode, and
    /// may do so after a first look; the kernel grants a write lease only while no other
    /// descriptor of the file is open, and the displaced file has no name any more, so once the
    /// lease is granted no late write can come. Where leases are refused (not the file's owner,
    /// a file system without them) it returns at once, as before.
    static func waitUntilClosedElsewhere(_ fd: Int32) {
        let setLease: Int32 = 1024, writeLease: Int32 = 1, unlock: Int32 = 2  // F_SETLEASE, F_WRLCK, F_UNLCK
        let deadline = Date(timeIntervalSinceNow: 2)
        while true {
            if fcntl(fd, setLease, writeLease) == 0 {
                _ = fcntl(fd, setLease, unlock)
                return
            }
            guard errno == EAGAIN, Date() < deadline else { return }
            usleep(1_000)
        }
    }

    func currentState(_ full: String, path: String) throws(SheafError) -> FileState {
        let fd = open(full, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return .absent }
            throw SheafError("will not replace", path: path,
                             cause: errno == ELOOP ? "it is a symlink" : String(cString: strerror(errno)))
        }
        defer { close(fd) }
        guard let identity = FileIdentity.of(descriptor: fd), identity.isRegularFile else {
            throw SheafError("will not replace", path: path, cause: "it is not a file")
        }
        return FileState(bytes: try Self.readAll(fd, path: path), identity: identity)
    }

    /// A synced temporary file beside `full`, open (its descriptor tells its identity later).
    /// Without `sync`, the disk write is only started (see `Prepared`).
    func writeTemporary(_ bytes: [UInt8], beside full: String, mode: mode_t, path: String, sync: Bool = true)
        throws(SheafError) -> (path: String, fd: Int32) {
        let temp = Self.temporaryName(beside: full)
        let fd = open(temp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw SheafError("cannot write", path: path, cause: String(cString: strerror(errno))) }
        do throws(SheafError) {
            try AtomicFile.writeAll(bytes, to: fd)
            if sync {
                guard fsync(fd) == 0 else { throw SheafError("cannot write", path: path, cause: String(cString: strerror(errno))) }
            } else {
                Self.startWriteBack(fd)
            }
        } catch {
            close(fd); unlink(temp)
            throw SheafError("cannot write", path: path, cause: error.cause ?? error.what)
        }
        fchmod(fd, mode)  // open() applied the umask
        return (temp, fd)
    }

    /// A hidden temporary name in the folder of `full` (`TemporaryName.beside`).
    public static func temporaryName(beside full: String) -> String { TemporaryName.beside(full) }

    // renameat2(2) is in glibc but not in Swift's Glibc module: look it up once.
    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    private static let renameat2Function: RenameAt2? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: RenameAt2.self)
    }()
    // sync_file_range(2), Linux only and not in Swift's Glibc module either. Without it the
    // write-back simply starts at the fsync.
    private typealias SyncFileRange = @convention(c) (Int32, Int64, Int64, UInt32) -> Int32
    private static let syncFileRangeFunction: SyncFileRange? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sync_file_range") else { return nil }
        return unsafeBitCast(symbol, to: SyncFileRange.self)
    }()

    /// Starts writing the file's dirty pages to disk without waiting (SYNC_FILE_RANGE_WRITE).
    static func startWriteBack(_ fd: Int32) {
        _ = syncFileRangeFunction?(fd, 0, 0, 2)
    }

    static let noReplace: UInt32 = 1  // RENAME_NOREPLACE
    static let exchange: UInt32 = 2   // RENAME_EXCHANGE

    static func renameat2(_ from: String, _ to: String, _ flags: UInt32) -> Int32 {
        guard let function = renameat2Function else { errno = ENOSYS; return -1 }
        return function(AT_FDCWD, from, AT_FDCWD, to, flags)
    }
}
