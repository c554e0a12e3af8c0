// The index as read commands see it: opened once per command and brought up to date by an
// incremental scan first, unless another writer holds the lock, in which case the command
// answers from the index as it is and says so.
import Foundation
import SheafCore
import SheafIndex

extension VaultSession {
    /// The vault's index, scanned so that any editor's change is seen. `onBusy` is told when the
    /// scan was skipped because another command holds the lock.
    public func freshIndex(rebuild: Bool = false, progress: (@Sendable (Int, Int) -> Void)? = nil,
                           onBusy: (() -> Void)? = nil) throws(SheafError) -> (NoteIndex, ScanReport?) {
        if let (index, report) = cachedIndex, !rebuild { return (index, report) }
        guard let lock = heldLock ?? VaultLock(path: vault.lockPath) else {
            (onBusy ?? onIndexBusy)?()
            let index = try NoteIndex(vault: vault)
            cachedIndex = (index, nil)
            return (index, nil)
        }
        if heldLock == nil {
            heldLock = lock
            defer { heldLock = nil }
            try completeInterruptedMove()  // links a killed `mv` left pointing nowhere
        }
        let index = try NoteIndex(vault: vault, rebuild: rebuild)
        let report = try index.scan(vault: vault, walker: walker(), progress: progress)
        withExtendedLifetime(lock) {}
        cachedIndex = (index, report)
        return (index, report)
    }

    /// The walk of this vault, with git's ignore rules.
    func walker() throws(SheafError) -> VaultWalker {
        let repo = try repository()
        return VaultWalker(vault: vault, outsideRules: repo.map { IgnoreReach(rules: $0.outsideIgnoreRules()) } ?? IgnoreReach()) { path, isDirectory in
            guard let repo else { return false }
            return (try? repo.isIgnored(isDirectory ? path + "/" : path)) ?? false
        }
    }
}
