// Temporary files a killed Sheaf left (`TemporaryName`): the freshness scan's walk names those in
// the vault's folders, and `.sheaf/` is listed for Sheaf's own; the command that holds the lock
// for the scan cleans the ones whose maker is gone (`TemporaryName.isOrphan`). Scratch files
// (Sheaf's new bytes only: attach's copies, its own state) are deleted. The others may hold the
// version a write displaced, a save made just then, so they are moved to
// `.sheaf/interrupted/<unix time>/<their path>`, out of the vault's folders, where `doctor` lists
// them until a person deletes them.
import Foundation
import SheafCore

/// The temporary files one walk met.
final class TemporaryFiles: @unchecked Sendable {
    var paths: [String] = []
}

extension VaultSession {
    var interruptedFolder: String { vault.stateDirectory + "/interrupted" }

    /// Cleans the orphans among `found` (vault-relative paths) and in `.sheaf/`; returns the
    /// vault-relative paths the kept ones were moved to.
    @discardableResult
    func cleanInterruptedWrites(_ found: [String], _ proof: borrowing WriterLock) -> [String] {
        let own = ((try? FileManager.default.contentsOfDirectory(atPath: vault.stateDirectory)) ?? [])
            .filter { $0.hasPrefix(TemporaryName.prefix) }.map { Vault.stateFolder + "/" + $0 }
        var kept: [String] = []
        let stamp = String(time(nil))
        for path in found + own {
            let full = vault.absolute(path)
            guard let maker = TemporaryName.maker(of: VaultPath.fileName(path)),
                  TemporaryName.isOrphan(full, maker: maker) else { continue }
            if maker.scratch || path.hasBytePrefix(Vault.stateFolder + "/") {
                unlink(full)
                continue
            }
            let destination = interruptedFolder + "/" + stamp + "/" + path
            try? FileManager.default.createDirectory(atPath: (destination as NSString).deletingLastPathComponent,
                                                     withIntermediateDirectories: true)
            if rename(full, destination) == 0, let relative = vault.relative(destination) { kept.append(relative) }
        }
        return kept
    }

    /// The files kept from killed writes (vault-relative), with the folder each was found in.
    func keptInterruptedWrites() -> [(path: String, foundIn: String)] {
        guard let walk = FileManager.default.enumerator(atPath: interruptedFolder) else { return [] }
        var result: [(String, String)] = []
        while let entry = walk.nextObject() as? String {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: interruptedFolder + "/" + entry, isDirectory: &isFolder),
                  !isFolder.boolValue else { continue }
            // `<time>/<path where it was found>`
            let found = entry.pathParts(maxSplits: 1).dropFirst().first.map(String.init) ?? entry
            result.append((Vault.stateFolder + "/interrupted/" + entry, VaultPath.folder(found)))
        }
        return result.sorted { $0.0 < $1.0 }
    }
}
