// Obsidian's own settings, read from `.obsidian/app.json` when a vault has one, so that Sheaf
// writes where Obsidian would and skips what Obsidian excludes: the attachment folder (`attach`),
// the new-note folder (`new`), wiki-link or markdown-link style and the link path format (links
// Sheaf writes), and `userIgnoreFilters` (files the index leaves out). Without the file, Sheaf's
// own defaults hold. Sheaf never writes the file.
import Foundation

public struct ObsidianSettings: Sendable, Equatable {
    /// `attachmentFolderPath`: `/` the vault root (Obsidian's default), `./` the note's folder,
    /// `./sub` a folder under the note's folder, anything else a vault folder.
    public var attachmentFolderPath: String = "/"
    /// `newFileLocation`: `root` (default), `current` (the folder Sheaf runs in), `folder`.
    public var newFileLocation: String = "root"
    public var newFileFolderPath: String = ""
    /// `useMarkdownLinks`: write `[text](path)` instead of `[[name]]`.
    public var useMarkdownLinks: Bool = false
    /// `newLinkFormat`: `shortest` (default), `relative` or `absolute`.
    public var newLinkFormat: String = "shortest"
    /// `userIgnoreFilters`: path prefixes (`Templates/`), or `/regex/` matched against the path
    /// (run by `ObsidianIgnoreFilters`, in linear time).
    public var userIgnoreFilters: [String] = []

    public init() {}

    public static func parse(_ data: Data) -> ObsidianSettings? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        var s = ObsidianSettings()
        if let v = object["attachmentFolderPath"] as? String { s.attachmentFolderPath = v }
        if let v = object["newFileLocation"] as? String { s.newFileLocation = v }
        if let v = object["newFileFolderPath"] as? String { s.newFileFolderPath = v }
        if let v = object["useMarkdownLinks"] as? Bool { s.useMarkdownLinks = v }
        if let v = object["newLinkFormat"] as? String { s.newLinkFormat = v }
        if let v = object["userIgnoreFilters"] as? [String] { s.userIgnoreFilters = v.filter { !$0.isEmpty } }
        return s
    }

    /// The vault folder (`""` for the root) where an attachment of the note at `notePath` goes;
    /// nil when the setting names a place outside the vault.
    public func attachmentFolder(forNoteAt notePath: String) -> String? {
        let setting = attachmentFolderPath.trimmingHorizontalWhitespace
        if setting.isEmpty || setting == "/" { return "" }
        if setting == "." || setting == "./" { return VaultPath.folder(notePath) }
        if setting.hasBytePrefix("./") { return VaultPath.normalize(VaultPath.join(VaultPath.folder(notePath), String(setting.dropFirst(2)))) }
        return VaultPath.normalize(setting.hasBytePrefix("/") ? String(setting.dropFirst()) : setting)
    }

    /// The folder for a new note when none is given: `workingFolder` for `current`.
    public func newNoteFolder(workingFolder: String?) -> String {
        switch newFileLocation {
        case "current": return workingFolder ?? ""
        case "folder": return VaultPath.normalize(newFileFolderPath) ?? ""
        default: return ""
        }
    }

    /// The ignore filters, compiled (`ObsidianIgnoreFilters`).
    public var ignoreFilters: ObsidianIgnoreFilters { ObsidianIgnoreFilters(userIgnoreFilters) }
}
