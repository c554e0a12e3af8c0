// Where a vault is and what lives in it. A vault is a folder holding `.sheaf/`; it is found
// from --vault, then SHEAF_VAULT, then by walking up from the working directory. An enclosing
// git repository without `.sheaf/` is never taken for a vault.
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
        guard normalized.hasPrefix(prefix) else { return nil }
        return String(normalized.dropFirst(prefix.count))
    }

    /// Whether `folder` holds a vault.
    public static func isVault(_ folder: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder + "/" + stateFolder, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Finds the vault for a command: `explicit` (--vault), else `SHEAF_VAULT`, else the first
    /// folder holding `.sheaf/` from `workingDirectory` upwards.
    public static func discover(explicit: String?, environment: [String: String],
                                workingDirectory: String) throws(SheafError) -> Vault {
        if let given = explicit ?? environment["SHEAF_VAULT"].flatMap({ $0.isEmpty ? nil : $0 }) {
            let path = absolutePath(given, from: workingDirectory)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                throw SheafError("no such folder", path: given,
                                 cause: explicit != nil ? "--vault names a folder that does not exist" : "SHEAF_VAULT names a folder that does not exist",
                                 hint: "check the path; `sheaf init DIR` makes a vault of an existing folder")
            }
            guard isVault(path) else {
                throw SheafError("not a Sheaf vault", path: given,
                                 cause: "the folder has no .sheaf/ inside",
                                 hint: "run `sheaf init \(given)` to make it one")
            }
            return Vault(root: path)
        }
        var folder = absolutePath(workingDirectory, from: "/")
        while true {
            if isVault(folder) { return Vault(root: folder) }
            if folder == "/" || folder.isEmpty { break }
            folder = (folder as NSString).deletingLastPathComponent
        }
        throw SheafError("no vault here", path: workingDirectory,
                         cause: "no folder from here upwards holds .sheaf/",
                         hint: "run `sheaf init` in your notes folder, or pass --vault PATH or set SHEAF_VAULT")
    }

    /// `path` made absolute against `base`, with `.`, `..` and `~` resolved.
    public static func absolutePath(_ path: String, from base: String) -> String {
        var p = path
        if p == "~" || p.hasPrefix("~/") { p = NSHomeDirectory() + p.dropFirst() }
        if !p.hasPrefix("/") { p = base + "/" + p }
        return "/" + (VaultPath.normalize(p) ?? "")
    }
}
