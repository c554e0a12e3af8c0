// Warnings about a file are shown once per change of that file, not on every command:
// `.sheaf/warnings` remembers which (path, size, mtime, message) were already reported.
import Foundation
import SheafCore
import SheafFiles

struct WarningLog {
    let path: String

    init(vault: Vault) { path = vault.stateDirectory + "/warnings" }

    /// The warnings not reported before; records the current set so that a fixed file, once
    /// broken again, is reported again.
    func unreported(_ warnings: [VaultWarning], files: [VaultFile]) -> [VaultWarning] {
        var identity: [PathKey: String] = [:]  // bytes: NFC/NFD twins are two files
        for f in files { identity[PathKey(f.path)] = "\(f.size):\(f.mtimeNanoseconds)" }
        func key(_ w: VaultWarning) -> String {
            [w.path, identity[PathKey(w.path)] ?? "-", w.message].joined(separator: "\t").replacingOccurrences(of: "\n", with: " ")
        }
        let seen = Set(((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init))
        let keys = warnings.map(key)
        let text = keys.sorted().map { $0 + "\n" }.joined()
        if Set(keys) != seen { try? AtomicFile.write(text, to: path) }
        return zip(warnings, keys).filter { !seen.contains($0.1) }.map(\.0)
    }
}

extension VaultSession {
    /// Warnings about the vault's files that this vault has not shown yet (all of them with `all`).
    /// Commands that read every note anyway (the writers) take them from that read; the others
    /// from the index: this scan's walk warnings and each note's stored warnings.
    public func warningsToShow(all: Bool = false) throws(SheafError) -> [VaultWarning] {
        let warnings: [VaultWarning]
        let files: [VaultFile]
        if let catalog = cachedCatalog {
            (warnings, files) = (catalog.warnings, catalog.files)
        } else {
            let (index, scan) = try freshIndex()
            let notes = try index.summaries().sorted { $0.path < $1.path }
            warnings = (scan?.walkWarnings ?? [])
                + notes.flatMap { n in n.warnings.map { VaultWarning(path: n.path, message: $0) } }
            files = notes.map { VaultFile(path: $0.path, size: $0.size, mtimeNanoseconds: $0.mtimeNanoseconds, inode: 0) }
        }
        let fresh = WarningLog(vault: vault).unreported(warnings, files: files)
        return all ? warnings : fresh
    }
}
