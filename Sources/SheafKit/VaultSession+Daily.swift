// `sheaf daily` and `sheaf new --template`: today's note and notes from templates, named and
// filled the way Obsidian's core Daily notes and Templates plugins do, from the vault's own
// `.obsidian/daily-notes.json` and `.obsidian/templates.json` when they exist. Those files are
// synced content: the folders and template paths they name pass the vault-path guard.
import Foundation
import SheafCore
import SheafFiles

/// Where daily notes go and how they are named.
public struct DailyNoteSettings: Sendable, Equatable {
    /// Vault-relative folder, "" for the root.
    public var folder = ""
    /// A moment.js format; `/` in it makes subfolders (`YYYY/MM/YYYY-MM-DD`).
    public var format = "YYYY-MM-DD"
    /// A template note (vault-relative, `.md` optional), nil for none.
    public var template: String?
}

/// Where templates live and how `{{date}}` and `{{time}}` are written.
public struct TemplateSettings: Sendable, Equatable {
    public var folder = "Templates"
    public var dateFormat: String?
    public var timeFormat: String?
}

/// What `sheaf daily` found or made.
public struct DailyNoteReport: Sendable {
    public let path: String
    public let created: Bool
}

extension VaultSession {
    /// Daily-note settings: `.sheaf/config.toml` (`daily-folder`, `daily-format`,
    /// `daily-template`) over `.obsidian/daily-notes.json` over Obsidian's defaults.
    public func dailyNoteSettings() -> DailyNoteSettings {
        var settings = DailyNoteSettings()
        let obsidian = ObsidianSettings.plugin("daily-notes", vaultRoot: vault.root)
        if let folder = (config["daily-folder"] ?? obsidian["folder"]) { settings.folder = Self.trimmedFolder(folder) }
        if let format = (config["daily-format"] ?? obsidian["format"]), !format.isEmpty { settings.format = format }
        if let template = (config["daily-template"] ?? obsidian["template"]), !template.isEmpty { settings.template = template }
        return settings
    }

    /// Template settings: `.sheaf/config.toml` `templates-folder` over `.obsidian/templates.json`.
    public func templateSettings() -> TemplateSettings {
        var settings = TemplateSettings()
        let obsidian = ObsidianSettings.plugin("templates", vaultRoot: vault.root)
        if let folder = (config["templates-folder"] ?? obsidian["folder"]) { settings.folder = Self.trimmedFolder(folder) }
        settings.dateFormat = obsidian["dateFormat"]
        settings.timeFormat = obsidian["timeFormat"]
        return settings
    }

    /// The daily note of `day` (its calendar date where the user is): the existing one, or a new
    /// one made from the daily template when there is one.
    public func dailyNote(for day: Date, now: Date = Date()) throws(SheafError) -> DailyNoteReport {
        let settings = dailyNoteSettings()
        let name = MomentFormat.format(day, settings.format)
        let parts = name.pathParts().map(String.init)
        guard let last = parts.last, !last.isEmpty else {
            throw SheafError("the daily-note format gives no file name", cause: "format \"\(settings.format)\"",
                             hint: "set one with `sheaf config set daily-format YYYY-MM-DD`")
        }
        let folder = VaultPath.join(settings.folder, parts.dropLast().joined(separator: "/"))
        let path = VaultPath.join(folder, last + ".md")
        // The folder and format come from synced settings: an existing note is only handed back
        // (and opened in an editor) when the whole path passes the guard, symlinked folders included.
        if case .success = VaultPathGuard.check(path, in: vault.root), FileManager.default.fileExists(atPath: vault.absolute(path)) {
            // The note itself may be a symlink: opened only when it leads to a file of the vault.
            var info = stat()
            guard let real = VaultWalker.realPath(vault.absolute(path)), let root = VaultWalker.realPath(vault.root),
                  real.utf8.starts(with: (root + "/").utf8),
                  VaultPathGuard.refusal(String(decoding: real.utf8.dropFirst(root.utf8.count + 1), as: UTF8.self)) == nil,
                  stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                throw SheafError("the daily note is not a file of the vault", path: path,
                                 cause: "a folder, or a symlink that leads outside the vault or into .git or .sheaf",
                                 hint: "move it away, then run `sheaf daily` again")
            }
            return DailyNoteReport(path: path, created: false)
        }
        let template = try settings.template.map { (name) throws(SheafError) in try templateText(name, title: last, date: day, time: now) }
        let report = try createNote(title: last, folder: folder, tags: [], body: "", template: template, exactName: true, now: now)
        return DailyNoteReport(path: report.path, created: true)
    }

    /// A template note's text with its variables filled in for `title`. `name` is a path in the
    /// templates folder (or in the vault), `.md` optional.
    public func templateText(_ name: String, title: String, date: Date = Date(), time: Date? = nil) throws(SheafError) -> String {
        let settings = templateSettings()
        let file = name.hasSuffix(".md") ? name : name + ".md"
        let candidates = [VaultPath.join(settings.folder, file), file]
        guard let path = candidates.first(where: { candidate in
            VaultPathGuard.refusal(candidate) == nil && FileManager.default.fileExists(atPath: vault.absolute(candidate))
        }) else {
            throw SheafError("no such template", path: VaultPath.join(settings.folder, file),
                             hint: "templates are notes in \(settings.folder.isEmpty ? "the vault" : settings.folder + "/") (set `templates-folder` with `sheaf config set`)")
        }
        _ = try VaultPathGuard.require(path, in: vault.root, doing: "will not read this template")
        var info = stat()
        guard lstat(vault.absolute(path), &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
              case .whole(let bytes)? = NoteBytes.read(vault.absolute(path)),
              let text = String(validating: bytes, as: UTF8.self) else {
            throw SheafError("cannot use this template", path: path, cause: "it is not a readable UTF-8 file under 10 MB")
        }
        let filled = NoteTemplate(dateFormat: settings.dateFormat, timeFormat: settings.timeFormat).fill(text, title: title, date: date, time: time)
        // Checked here, where the template's path is known, so the message can name it.
        do { _ = try FrontMatterEditor(text: filled) } catch {
            throw SheafError("cannot use this template", path: path, cause: "its front-matter is not valid YAML: \(error)")
        }
        return filled
    }

    private static func trimmedFolder(_ folder: String) -> String {
        folder.trimmingCharacters(in: CharacterSet(charactersIn: "/ "))
    }
}
