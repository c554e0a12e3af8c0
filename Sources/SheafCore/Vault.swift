// Where a vault is and what lives in it. A vault is a folder holding `.sheaf/`; it is found
// from --vault, then SHEAF_VAULT, then by walking up from the working directory. An enclosing
// git repository without `.sheaf/` is never taken for a vault. The layout is here; finding it on disk
// is SheafFiles' Vault+Discovery.swift.
import Foundation

public struct Vault: Sendable {
    /// Absolute path of the vault root, without a trailing slash.
    public let root: String

    public init(root: String) {
        var r = root
        while r.count > 1 && r.hasSuffix("/") { r.removeLast() }
        self.root = r
    }

    public static let stateFolder = ".sheaf"
    public var stateDirectory: String { root + "/" + Vault.stateFolder }
    public var configPath: String { stateDirectory + "/config.toml" }
    public var lockPath: String { stateDirectory + "/lock" }

    /// The absolute path of a vault-relative path.
    public func absolute(_ relative: String) -> String {
        relative.isEmpty ? root : root + "/" + relative
    }

    /// The vault-relative form of an absolute path, nil when it is outside the vault.
    public func relative(_ absolutePath: String) -> String? {
        guard let normalized = VaultPath.normalize(absolutePath) else { return nil }
        let rootParts = VaultPath.normalize(root) ?? ""
        if normalized == rootParts { return "" }
        let prefix = rootParts.isEmpty ? "" : rootParts + "/"
        return normalized.droppingBytePrefix(prefix)
    }

    /// `path` made absolute against `base`, with `.`, `..` and `~` resolved.
    public static func absolutePath(_ path: String, from base: String) -> String {
        var p = path
        if p == "~" || p.hasPrefix("~/") { p = NSHomeDirectory() + p.dropFirst() }
        if !p.hasPrefix("/") { p = base + "/" + p }
        return "/" + (VaultPath.normalize(p) ?? "")
    }
}
