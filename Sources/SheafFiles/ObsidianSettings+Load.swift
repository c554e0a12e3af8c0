// Reading Obsidian's settings files from a vault. What they mean is SheafCore's
// `ObsidianSettings` (pure: `parse` of the bytes); only the reads live here, so SheafCore touches
// no file.
import Foundation
import SheafCore

extension ObsidianSettings {
    /// The settings of the vault at `root`, nil when it has no `.obsidian/app.json` (or one that
    /// is not a JSON object). Keys of the wrong type keep their defaults.
    public static func load(vaultRoot root: String) -> ObsidianSettings? {
        guard let data = FileManager.default.contents(atPath: root + "/.obsidian/app.json") else { return nil }
        return parse(data)
    }

    /// The string settings of one of Obsidian's core plugins (`daily-notes`, `templates`) from
    /// `.obsidian/<plugin>.json`; empty when the file is missing, too large or not a JSON object.
    public static func plugin(_ name: String, vaultRoot root: String) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: root + "/.obsidian/" + name + ".json"), data.count < 1_000_000,
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object.compactMapValues { $0 as? String }
    }
}
