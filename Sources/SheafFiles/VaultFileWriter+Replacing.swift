// The replacement loop of `VaultFileWriter` (the one write path, VaultFileWriter.swift), as named
// steps: each try writes Sheaf's version beside the file, checks the file is still the one read,
// swaps with `renameat2(RENAME_EXCHANGE)` and looks at what the swap displaced; a save met on the
// way is put back at once and Sheaf's change made again on it (ARCHITECTURE.md, "One write rule").
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SheafCore

extension VaultFileWriter {
    /// Where one replacement stands between tries: the file as Sheaf last knew it, what Sheaf
    /// wants in it, and how to make Sheaf's change again on what an editor saved.
    private struct Round {
        let path: SafePath
        let full: String
        var expected: FileState
        var wanted: [UInt8]
        var redo: Redo
        var reconciled: Bool

        /// The outcome when nothing more is written.
        var unwritten: WriteOutcome { reconciled ? .reconciled : .unchanged }
    }

    /// How a swap attempt ended: swapped (Sheaf's file is in place, `ours` its identity), done
    /// without an exchange, or to be tried again.
    private enum Swap {
        case swapped(ours: FileIdentity?)
        case done(WriteOutcome)
        case again
    }

    /// Tries until the file holds Sheaf's change on its latest version, for at most 100 tries or
    /// `giveUpAfter` seconds.
    func replacing(_ path: SafePath, expected start: FileState, wanted first: [UInt8], mode: UInt32?,
                           redo firstRedo: @escaping Redo, reconciled startReconciled: Bool,
                           prepared: Prepared?, owed: inout [Owed]) throws(SheafError) -> WriteOutcome {
        var prepared = prepared
        try VaultPathGuard.makeFolders(of: path, in: root)
        var round = Round(path: path, full: root + "/" + path.path, expected: start, wanted: first, redo: firstRedo,
                          reconciled: startReconciled)
        let giveUp = Date(timeIntervalSinceNow: Self.giveUpAfter)
        for attempt in 0..<100 {
            if attempt >= 3 && Date() > giveUp { break }
            if attempt >= 3 {
                // An editor saving in a tight loop: wait a moment (longer each time) for a gap.
                usleep(UInt32.random(in: 500...UInt32(min(attempt, 20) * 1_000)))
            }
            if let outcome = try tryOnce(&round, mode: mode, prepared: &prepared, owed: &owed) { return outcome }
        }
        throw SheafError("the file kept changing while Sheaf wrote it", path: path.path,
                         hint: "nothing was lost; run the command again when the editor is idle")
    }

    /// One try: Sheaf's version written beside the file, the identity check, the swap, and what
    /// the swap displaced looked at. Nil: go round again (`round` holds what to try next).
    private func tryOnce(_ round: inout Round, mode: UInt32?, prepared: inout Prepared?,
                         owed: inout [Owed]) throws(SheafError) -> WriteOutcome? {
        if round.expected.bytes == round.wanted && round.expected.exists {
            // Nothing to change, as long as the file is still what was read.
            if let now = FileIdentity.of(path: round.full), now.matches(round.expected.identity) { return round.unwritten }
        }
        let temp = try temporaryFile(for: round, mode: mode, prepared: &prepared)
        // The check right before the swap.
        let now = FileIdentity.of(path: round.full)
        beforeSwap?(round.path)
        if !(now?.matches(round.expected.identity) ?? !round.expected.exists) {
            unlink(temp.path); close(temp.fd)
            return try catchUp(&round) ? nil : round.unwritten
        }
        if !round.expected.exists { return try createAbsent(temp, round) }
        switch try swapIn(temp, round) {
        case .done(let outcome): return outcome
        case .again: return nil
        case .swapped(let ours):
            afterSwap?(round.path)
            return try settleSwap(temp, ours: ours, &round, owed: &owed)
        }
    }

    /// The file is not what Sheaf read: the change is made again on what it holds now.
    /// False when nothing is to be written (the redo declined).
    private func catchUp(_ round: inout Round) throws(SheafError) -> Bool {
        let current = try currentState(round.full, path: round.path.path)
        if current.bytes != round.expected.bytes {  // else touched, not changed
            guard let again = try round.redo(current.bytes) else { return false }
            round.wanted = again
            round.reconciled = true
        }
        round.expected = current
        return true
    }

    /// The temporary file to swap in: the one written ahead when it holds what is wanted now
    /// (synced here), else one written afresh. A second round always writes afresh (an unused
    /// preparation deletes itself).
    private func temporaryFile(for round: Round, mode: UInt32?,
                               prepared: inout Prepared?) throws(SheafError) -> (path: String, fd: Int32) {
        defer { prepared = nil }
        let fileMode = mode.map { mode_t($0) } ?? round.expected.identity.map { mode_t($0.mode) } ?? 0o644
        guard let ahead = prepared, ahead.bytes == round.wanted, ahead.mode == fileMode else {
            return try writeTemporary(round.wanted, beside: round.full, mode: fileMode, path: round.path.path)
        }
        // Written ahead: synced now (its write-back started when it was prepared).
        guard fsync(ahead.fd) == 0 else {
            throw SheafError("cannot write", path: round.path.path, cause: String(cString: strerror(errno)))
        }
        ahead.taken = true
        return (ahead.temp, ahead.fd)
    }

    /// A file expected absent is created, never over one that appeared (that one is met next round).
    private func createAbsent(_ temp: (path: String, fd: Int32), _ round: Round) throws(SheafError) -> WriteOutcome? {
        let rc = Self.renameat2(temp.path, round.full, Self.noReplace)
        let failure = errno
        if rc != 0 && failure == EEXIST { unlink(temp.path); close(temp.fd); return nil }  // appeared: go round
        if rc != 0 && (failure == EINVAL || failure == ENOSYS) {
            let linked = link(temp.path, round.full) == 0
            unlink(temp.path); close(temp.fd)
            return linked ? finishOutcome(round.path, round.reconciled) : nil
        }
        unlink(temp.path); close(temp.fd)
        guard rc == 0 else { throw SheafError("cannot write", path: round.path.path, cause: String(cString: strerror(failure))) }
        return finishOutcome(round.path, round.reconciled)
    }

    /// The swap: Sheaf's file and the target exchange names, so the displaced version stays in
    /// hand under the temporary name. On a file system without the exchange, a plain rename
    /// (checked just before) ends the write.
    private func swapIn(_ temp: (path: String, fd: Int32), _ round: Round) throws(SheafError) -> Swap {
        let ours = FileIdentity.of(descriptor: temp.fd)  // what Sheaf puts in place, as it puts it there
        let rc = Self.renameat2(temp.path, round.full, Self.exchange)
        let failure = errno
        if rc == 0 { return .swapped(ours: ours) }
        if failure == ENOENT { unlink(temp.path); close(temp.fd); return .again }  // deleted meanwhile: go round
        if failure == EINVAL || failure == ENOSYS {
            // No exchange on this file system: a plain rename, checked just before.
            let renamed = rename(temp.path, round.full) == 0
            let e = errno
            close(temp.fd)
            guard renamed else { unlink(temp.path); throw SheafError("cannot replace", path: round.path.path, cause: String(cString: strerror(e))) }
            return .done(finishOutcome(round.path, round.reconciled))
        }
        unlink(temp.path); close(temp.fd)
        throw SheafError("cannot replace", path: round.path.path, cause: String(cString: strerror(failure)))
    }

    /// After the swap the temporary name holds what the target held at that instant. The version
    /// Sheaf read is retired (looked at again by `finish()`); anything else was saved (or a folder
    /// or symlink put there) between the check and the swap, and goes back at once. Nil: go round.
    private func settleSwap(_ temp: (path: String, fd: Int32), ours: FileIdentity?, _ round: inout Round,
                            owed: inout [Owed]) throws(SheafError) -> WriteOutcome? {
        // Sheaf's own file stays open until it is known where it went (its inode number
        // cannot be handed to another file meanwhile).
        let old = open(temp.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        let oldIdentity = old >= 0 ? FileIdentity.of(descriptor: old) : nil
        if let oldIdentity, oldIdentity.matches(round.expected.identity), Self.holds(old, round.expected.bytes) {
            close(temp.fd)
            unlink(temp.path)
            retire(Displaced(fd: old, path: round.path, identity: oldIdentity, written: FileState(bytes: round.wanted, identity: ours),
                             redo: round.redo, original: Self.kept(round.expected.bytes)))
            return finishOutcome(round.path, round.reconciled)
        }
        // Their version goes back at once: an editor that reloads the file must not find Sheaf's
        // version without their save while Sheaf makes its change again (it would save on top of
        // it, and their save would be gone).
        if Self.renameat2(temp.path, round.full, Self.exchange) == 0 {
            return try afterPuttingBack(temp, old: old, oldIdentity: oldIdentity, ours: ours, &round, owed: &owed)
        }
        try foldInMovedAway(temp, old: old, oldIdentity: oldIdentity, ours: ours, &round, owed: &owed)
        return nil
    }

    /// Their version is back in place. The temporary name holds what the target held an instant
    /// ago: Sheaf's version (retired, the change made again on theirs), unless someone saved in
    /// that instant too. Nil: go round.
    private func afterPuttingBack(_ temp: (path: String, fd: Int32), old: Int32, oldIdentity: FileIdentity?,
                                  ours: FileIdentity?, _ round: inout Round, owed: inout [Owed]) throws(SheafError) -> WriteOutcome? {
        let back = open(temp.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        let backIdentity = back >= 0 ? FileIdentity.of(descriptor: back) : nil
        if old >= 0 { close(old) }
        let mine = FileIdentity.of(descriptor: temp.fd)
        close(temp.fd)
        guard let backIdentity, let mine, backIdentity.device == mine.device && backIdentity.inode == mine.inode else {
            try foldInSecondSave(temp, back: back, backIdentity: backIdentity, &round, owed: &owed)
            return nil
        }
        unlink(temp.path)
        guard oldIdentity?.isRegularFile ?? true else {
            close(back)
            throw SheafError("will not replace", path: round.path.path, cause: "it became a folder or a symlink while Sheaf wrote it")
        }
        // Sheaf's own version: a writer that opened it in that instant may still
        // write into it; that write is folded in by `finish()`.
        retire(Displaced(fd: back, path: round.path, identity: ours ?? mine,
                         written: FileState(bytes: round.wanted, identity: ours), redo: { $0 }, original: Self.kept(round.wanted)))
        // Their version is in place again: the change is made again on it (now, not
        // by the next check, which a same-size save within one clock tick passes).
        return try catchUp(&round) ? nil : round.unwritten
    }

    /// Someone put something there in the instant between the two exchanges, and it came back to
    /// Sheaf. Never deleted unread: a folder, a symlink or a file that cannot be read stays under
    /// the temporary name, and the write stops saying where it is. A save is in hand only: it is
    /// merged into every further try, and kept beside the file if the write ends otherwise.
    private func foldInSecondSave(_ temp: (path: String, fd: Int32), back: Int32, backIdentity: FileIdentity?,
                                  _ round: inout Round, owed: inout [Owed]) throws(SheafError) {
        let path = round.path
        let kept = String(temp.path.dropFirst(root.count + 1))
        guard let backIdentity, backIdentity.isRegularFile else {
            if back >= 0 { close(back) }
            throw SheafError("will not replace", path: path.path, cause: "it changed twice while Sheaf wrote it",
                             hint: "what was there a moment ago is kept as \(kept)")
        }
        let saved: [UInt8]
        do throws(SheafError) { saved = try Self.readAll(back, path: path.path) } catch {
            close(back)
            throw SheafError("cannot read", path: path.path, cause: error.cause, hint: "a version saved a moment ago is kept as \(kept)")
        }
        unlink(temp.path)
        retire(Displaced(fd: back, path: path, identity: backIdentity,
                         written: FileState(bytes: saved, identity: backIdentity), redo: { $0 }, original: Self.kept(saved)))
        owed.append(Owed(bytes: saved, base: round.wanted))
        let inner = round.redo, merge = self.merge, base = round.wanted
        round.redo = { (current) throws(SheafError) in
            guard let current else { return try inner(saved) ?? saved }
            let both = merge(path.path, base, current, saved)
            return try inner(both) ?? both
        }
        round.expected = try currentState(round.full, path: path.path)
        round.wanted = try round.redo(round.expected.bytes) ?? round.wanted
        round.reconciled = true
    }

    /// Their version could not go back (the file was moved or deleted in that instant): it is in
    /// hand, and Sheaf's is in place. The next round writes the folded version over Sheaf's,
    /// merging with anything saved after it.
    private func foldInMovedAway(_ temp: (path: String, fd: Int32), old: Int32, oldIdentity: FileIdentity?,
                                 ours: FileIdentity?, _ round: inout Round, owed: inout [Owed]) throws(SheafError) {
        close(temp.fd)
        let theirs = old >= 0 && (oldIdentity?.isRegularFile ?? false) ? (try? Self.readAll(old, path: round.path.path)) : nil
        if old >= 0 { close(old) }
        unlink(temp.path)
        if let theirs { owed.append(Owed(bytes: theirs, base: round.expected.bytes)) }
        let again = try round.redo(theirs) ?? theirs ?? round.wanted
        let mine = round.wanted
        let merge = self.merge, path = round.path.path
        round.expected = FileState(bytes: mine, identity: ours)
        round.wanted = again
        round.redo = { (current) throws(SheafError) in
            guard let current else { return again }
            return merge(path, mine, current, again)
        }
        round.reconciled = true
    }
}
