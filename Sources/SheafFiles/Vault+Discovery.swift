// Finding a vault on disk: --vault, then SHEAF_VAULT, then the first folder holding `.sheaf/`
// from the working directory upwards. What a vault's layout is (`Vault`) is SheafCore's; only
// the looking at folders lives here, so SheafCore touches no file.
import Foundation
import SheafCore

extension Vault {
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
}
