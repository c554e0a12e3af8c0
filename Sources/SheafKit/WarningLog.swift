// Warnings about a file are shown once per change of that file, not on every command:
// `.sheaf/warnings` remembers which (path, size, mtime, message) were already reported.
import Foundation
import SheafCore

struct WarningLog {
    let path: String

    init(vault: Vault) { path = vault.stateDirectory + "/warnings" }

    /// The warnings not reported before; records the current set so that a fixed file, once
    /// broken again, is reported again.
    func unreported(_ warnings: [VaultWarning], files: [VaultFile]) -> [VaultWarning] {
        var identity: [String: String] = [:]
        for f in files { identity[f.path] = "\(f.size):\(f.mtimeNanoseconds)" }
        func key(_ w: VaultWarning) -> String {
            [w.path, identity[w.path] ?? "-", w.message].joined(separator: "\t").replacingOccurrences(of: "\n", with: " ")
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
    public func warningsToShow(all: Bool = false) throws(SheafError) -> [VaultWarning] {
        let catalog = try catalog()
        let fresh = WarningLog(vault: vault).unreported(catalog.warnings, files: catalog.files)
        return all ? catalog.warnings : fresh
    }
}
