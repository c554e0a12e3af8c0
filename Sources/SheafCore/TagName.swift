// Tags typed on the command line (`sheaf new --tag`, `sheaf tags add|remove`). One rule for what a
// tag may be, so Sheaf never writes a tag that Obsidian would read as something else or not at all.

/// Checks and cleans tags given by a user.
public enum TagName {
    /// The tags without a leading `#`, empty ones dropped. Throws for a tag Obsidian would not
    /// accept as one tag: one holding white space, a control character, a comma (a tags string
    /// splits there), a `#` after its start, or only digits (`#1984` is not a tag in Obsidian).
    public static func cleaned(_ tags: [String]) throws(SheafError) -> [String] {
        var out: [String] = []
        for (raw, tag) in zip(tags, tags.map(stripped)) where !tag.isEmpty {
            if let why = problem(tag) {
                throw SheafError("not a tag: \"\(raw)\"", cause: why,
                                 hint: "tags are one word; use - or _ between words (`travel-plans`) and / for nesting (`travel/portugal`)")
            }
            out.append(tag)
        }
        return out
    }

    /// A tag as named in a note: without its leading `#`. For finding tags already written, which
    /// need not pass `cleaned`.
    public static func stripped(_ tag: String) -> String {
        tag.hasPrefix("#") ? String(tag.dropFirst()) : tag
    }

    /// Why `tag` (without `#`) is not a tag Obsidian accepts, nil when it is one.
    public static func problem(_ tag: String) -> String? {
        for scalar in tag.unicodeScalars {
            if scalar.properties.isWhitespace { return "a tag cannot hold spaces" }
            if scalar.value < 0x20 || scalar.value == 0x7F { return "a tag cannot hold control characters" }
            if scalar == "," { return "a tag cannot hold a comma" }
            if scalar == "#" { return "a tag cannot hold # after its start" }
        }
        if tag.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) {
            return "a tag needs at least one character that is not a digit"
        }
        return nil
    }
}
