// The one writer rule, in one place: every command that changes the vault or `.git` holds
// `.sheaf/lock`. The write path needs a `WriterLock`, which only `withWriterLock` (and the index
// scan that took the lock itself, `whileHolding`) can make, and lends to its body without letting
// it go (non-copyable, borrowed): code that writes without the lock does not compile.
import SheafCore

/// Proof that this command holds `.sheaf/lock`. `fileWriter(_:)`, and through it every write of
/// a user's file, takes one.
public struct WriterLock: ~Copyable {
    fileprivate init() {}
}

extension VaultSession {
    /// Runs `body` holding `.sheaf/lock`, waiting for another command that holds it. Refuses
    /// while git has a merge, rebase or the like unfinished, or another git process may be
    /// writing (a lock file in `.git` Sheaf cannot prove stale: see Repository+StaleLocks).
    /// With `commits` false (a command that writes files but makes no commit: new, append, tags,
    /// write, attach, resolve) git's state is not checked: only the lock is taken.
    func withWriterLock<T>(commits: Bool = true, _ body: (borrowing WriterLock) throws(SheafError) -> T) throws(SheafError) -> T {
        if heldLock != nil { return try body(WriterLock()) }
        guard let lock = try VaultLock.take(vault.lockPath, wait: true, onWait: lockWaitEvent) else {
            throw SheafError("another sheaf command is changing the vault", path: vault.root,
                             hint: "wait for it to finish, then run this again")
        }
        heldLock = lock
        defer { heldLock = nil }
        let proof = WriterLock()
        guard commits, let repo = try repository() else {
            try completeInterruptedMove(proof)
            return try body(proof)
        }
        if let operation = repo.operationInProgress() {
            throw SheafError("a git \(operation.rawValue) is in progress in this vault", path: vault.root,
                             cause: "committing now would record it half done",
                             hint: operation.howToFinish + ", then run this again")
        }
        let record = vault.stateDirectory + "/git-session"
        let locks = repo.beginLockSession(record: record)
        defer { repo.endLockSession(record: record) }
        if let held = locks.held.first {
            let age = held.age < 120 ? "\(Int(held.age)) s" : "\(Int(held.age / 60)) min"
            throw SheafError("the vault's git repository is locked", path: held.path,
                             cause: "another git command is writing (a `git commit` waiting for its editor?), or one was killed; the lock is \(age) old",
                             hint: "let that git command finish and run this again; if none is running, delete the file")
        }
        try completeInterruptedMove(proof)  // a killed `mv` left links pointing nowhere
        return try body(proof)
    }

    /// Runs `body` with the proof of a lock the caller already took itself (the index scan,
    /// which finishes an interrupted `mv` before it reads).
    func whileHolding<T>(_ lock: VaultLock, _ body: (borrowing WriterLock) throws(SheafError) -> T) throws(SheafError) -> T {
        heldLock = lock
        defer { heldLock = nil }
        return try body(WriterLock())
    }
}
