// `sheaf init`: adopt a folder as a vault without changing any file in it.
import Foundation
import SheafCore
import SheafFiles
import SheafGit

/// What `sheaf init` did.
public struct InitReport: Sendable {
    public let root: String
    public let createdRepository: Bool
    public let createdVault: Bool
    public let excludeLinesAdded: [String]
}

extension VaultSession {
    /// Lines `init` puts into `.git/info/exclude`: Sheaf's own state and volatile editor files.
    public static let excludedPatterns = [".sheaf/", ".obsidian/workspace*.json", ".DS_Store", ".trash/",
                                         ".sheaf-tmp-*"]

    /// Makes `folder` a vault: a git repository (branch `main`) only if it has none, `.sheaf/`,
    /// and the exclude lines. Existing files are left exactly as they are.
    public static func initialize(folder: String) throws(SheafError) -> InitReport {
        var isDirectory: ObjCBool = false
        let fm = FileManager.default
        if fm.fileExists(atPath: folder, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw SheafError("not a folder", path: folder) }
        } else {
            do { try fm.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            catch { throw SheafError("cannot create folder", path: folder, cause: "\(error.localizedDescription)") }
        }
        let root = Vault.absolutePath(folder, from: fm.currentDirectoryPath)
        let vault = Vault(root: root)

        var createdRepository = false
        let repo: Repository
        do {
            if let existing = try Repository.open(workTree: root) {
                repo = existing
            } else {
                repo = try Repository.create(workTree: root, initialBranch: "main")
                createdRepository = true
            }
        } catch {
            throw SheafError("cannot set up git", path: root, cause: error.description)
        }

        let createdVault = !Vault.isVault(root)
        if createdVault {
            do { try fm.createDirectory(atPath: vault.stateDirectory, withIntermediateDirectories: true) }
            catch { throw SheafError("cannot create .sheaf/", path: root, cause: "\(error.localizedDescription)") }
        }
        let added = try addExcludes(gitDirectory: repo.gitDirectory)
        return InitReport(root: root, createdRepository: createdRepository, createdVault: createdVault,
                          excludeLinesAdded: added)
    }

    /// Appends the patterns `.git/info/exclude` lacks; returns them.
    static func addExcludes(gitDirectory: String) throws(SheafError) -> [String] {
        let info = gitDirectory + "/info"
        let path = info + "/exclude"
        let existing = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let present = Set(existing.split(whereSeparator: \.isNewline).map { $0.trimmingHorizontalWhitespace })
        let missing = excludedPatterns.filter { !present.contains($0) }
        guard !missing.isEmpty else { return [] }
        var text = existing
        if !text.isEmpty && !text.endsWithLineBreak { text += "\n" }
        text += "# sheaf: local state and volatile editor files\n" + missing.map { $0 + "\n" }.joined()
        try? FileManager.default.createDirectory(atPath: info, withIntermediateDirectories: true)
        try AtomicFile.write(text, to: path)
        return missing
    }
}

extension VaultSession {
    /// How many notes and other files the vault holds, and what the walk could not read: one
    /// walk of names, no note parsed (the first read command builds the index and reports notes
    /// it cannot read).
    public func fileCounts() throws(SheafError) -> (notes: Int, otherFiles: Int, warnings: [VaultWarning]) {
        let (files, warnings) = try walker(forIndex: true).files(sorted: false)
        let notes = files.count { VaultPath.isNote($0.path) }
        return (notes, files.count - notes, warnings)
    }
}
