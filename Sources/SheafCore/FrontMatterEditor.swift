// The line-preserving front-matter editor. Sheaf never re-emits YAML: it finds the lines of one
// top-level key and changes those alone, so key order, comments, quoting, flow or block style,
// unknown keys, CRLF endings and a BOM all survive an edit byte for byte. Finding a key's lines
// is a reading of YAML's surface, which valid YAML can defeat (a top-level flow mapping, block
// scalars kept with their trailing blank lines): so every edit parses its result and keeps it
// only when it means what the edit intends, every other key's value unchanged; otherwise the
// document stays as it was and the edit throws `FrontMatterEditRefusal`.
import Foundation

/// An edit the line editor could not make without changing other values or breaking the YAML.
public struct FrontMatterEditRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    public let key: String
    public var description: String {
        "Sheaf cannot change `\(key)` in this front-matter without breaking its YAML or changing another value (it edits lines, and this YAML is written in a shape it does not edit safely); the note was left as it is"
    }
}

/// Edits one note's front-matter in place, touching only the lines of the keys it changes.
public struct FrontMatterEditor: Sendable {
    public private(set) var document: NoteDocument

    /// Refuses a note whose front-matter does not parse: Sheaf never rewrites a note it cannot read.
    public init(document: NoteDocument) throws(FrontMatterError) {
        if let block = document.frontMatter { _ = try FrontMatter(parsing: block) }
        self.document = document
    }

    public init(text: String) throws(FrontMatterError) {
        try self.init(document: NoteDocument(text: text))
    }

    public var text: String { document.rendered }

    /// The parsed front-matter as it stands after the edits so far.
    public var frontMatter: FrontMatter {
        guard let block = document.frontMatter else { return FrontMatter() }
        return (try? FrontMatter(parsing: block)) ?? FrontMatter()
    }

    // MARK: - Operations

    /// Sets a top-level key to a scalar string. An existing key keeps its spelling, its place and
    /// its trailing comment; a new key goes at the end of the block.
    public mutating func set(_ key: String, to value: String) throws(FrontMatterEditRefusal) {
        try set(key, rendered: YAMLScalar.render(value), intended: .scalar(value))
    }

    /// Sets a top-level key to a date and time with its offset, unquoted, so YAML readers (and
    /// Obsidian's date properties) read a timestamp, not text.
    public mutating func set(_ key: String, toDate date: Date) throws(FrontMatterEditRefusal) {
        let text = NoteDate.format(date)
        try set(key, rendered: text, intended: .scalar(text))
    }

    private mutating func set(_ key: String, rendered: String, intended: YAMLValue) throws(FrontMatterEditRefusal) {
        var lines = blockLines
        if let entry = Self.entries(in: lines).first(where: { $0.key.isIdentical(to: key) }) {
            let line = lines[entry.keyLine]
            let content = Lines.content(line)
            let comment = YAMLScalar.splitComment(content[entry.valueStart...]).comment
            let newLine = content[..<entry.valueStart] + " " + rendered + comment + ending(of: line)
            lines.replaceSubrange(entry.keyLine..<entry.end, with: [String(newLine)])
            try keep([lines], key: key) { $0 == intended }
        } else {
            try keep(inserting: [Self.renderKey(key) + ": " + rendered + eol], into: lines, key: key) { $0 == intended }
        }
    }

    /// Removes a top-level key and its value lines. Returns false when the key was absent.
    @discardableResult
    public mutating func remove(_ key: String) throws(FrontMatterEditRefusal) -> Bool {
        var lines = blockLines
        guard let entry = Self.entries(in: lines).first(where: { $0.key.isIdentical(to: key) }) else { return false }
        lines.removeSubrange(entry.keyLine..<entry.end)
        try keep([lines], key: key) { $0 == nil }
        return true
    }

    /// Adds items to a list key (block list, flow list or comma/space separated string), in that
    /// key's own style. Items already present (compared by `normalize`) are skipped.
    /// Returns the items added.
    @discardableResult
    public mutating func addItems(_ items: [String], to key: String,
                                  normalize: (String) -> String = { $0 }) throws(FrontMatterEditRefusal) -> [String] {
        var lines = blockLines
        let entries = Self.entries(in: lines)
        let entry = entries.first { $0.key.isIdentical(to: key) }
        // What the key holds as YAML reads it, not as its lines look (`[a,\n  b]`, `&anchor [a]`).
        var seen = Set(frontMatter.stringList(key).map(normalize))
        let toAdd = items.filter { seen.insert(normalize($0)).inserted }
        if toAdd.isEmpty { return [] }
        // What the key must read as afterwards: its list with the items after it, or its string
        // with them joined as the edit joins them.
        let intended: YAMLValue?
        switch frontMatter[key] {
        case nil, .null?: intended = .list(toAdd.map(YAMLValue.scalar))
        case .list(let present)?: intended = .list(present + toAdd.map(YAMLValue.scalar))
        case .scalar(let text)?:
            intended = .scalar(([text] + toAdd).filter { !$0.isEmpty }.joined(separator: text.contains(",") ? ", " : " "))
        case .map?: intended = nil
        }

        guard let entry else {
            let prefix = blockItemPrefix(lines, entries: entries)
            var added = [Self.renderKey(key) + ":" + eol]
            added += toAdd.map { prefix + YAMLScalar.render($0) + eol }
            try keep(inserting: added, into: lines, key: key) { $0 == intended }
            return toAdd
        }
        let keyLine = lines[entry.keyLine]
        let content = Lines.content(keyLine)
        let (valuePart, comment) = YAMLScalar.splitComment(content[entry.valueStart...])
        let value = valuePart.trimmingBlanks
        let head = content[..<entry.valueStart]

        if value.isEmpty {
            // Block list (or an empty key): new items after the last item, in its indentation.
            let items = blockItems(of: entry, in: lines)
            let prefix = items.last.map { itemPrefix(Lines.content(lines[$0.line])) }
                ?? blockItemPrefix(lines, entries: entries)
            let insertAt = items.last?.end ?? entry.keyLine + 1
            let ending = ending(of: lines[insertAt - 1])
            lines.insert(contentsOf: toAdd.map { prefix + YAMLScalar.render($0) + ending }, at: insertAt)
        } else if let flow = Self.isNull(value) ? [] : YAMLScalar.flowItems(value) {
            // A YAML null (`~`, `null`) is an empty list: it becomes a flow list of the items.
            let rendered = toAdd.map { YAMLScalar.render($0, inFlow: true) }
            let inner: String
            if flow.isEmpty {
                inner = "[" + rendered.joined(separator: ", ") + "]"
            } else {
                let beforeClose = value.dropLast().trimmingTrailingBlanks
                inner = beforeClose + ", " + rendered.joined(separator: ", ") + "]"
            }
            let newLine = head + valuePart.prefix(while: { $0 == " " || $0 == "\t" }) + inner + comment + ending(of: keyLine)
            lines[entry.keyLine] = String(newLine)
        } else {
            // A string such as `travel, food` or `travel food`.
            let current = YAMLScalar.text(of: value)
            let separator = current.contains(",") ? ", " : " "
            let joined = ([current] + toAdd).filter { !$0.isEmpty }.joined(separator: separator)
            let isPlain = value.first != "\"" && value.first != "'"
            let rendered = isPlain && !YAMLScalar.needsQuotes(joined, inFlow: false) ? joined : YAMLScalar.doubleQuoted(joined)
            lines.replaceSubrange(entry.keyLine..<entry.end,
                                  with: [String(head + " " + rendered + comment + ending(of: keyLine))])
        }
        try keep([lines], key: key) { intended != nil && $0 == intended }
        return toAdd
    }

    /// Removes items from a list key, keeping its style. Returns the items removed, as written.
    @discardableResult
    public mutating func removeItems(_ items: [String], from key: String,
                                     normalize: (String) -> String = { $0 }) throws(FrontMatterEditRefusal) -> [String] {
        var lines = blockLines
        let targets = Set(items.map(normalize))
        // What the key must read as afterwards: its items but the removed ones (an emptied list
        // may read as null), or its string without them.
        let before = frontMatter[key]
        let intended: (YAMLValue?) -> Bool
        switch before {
        case .list(let present)?:
            let kept = present.filter { $0.text.map { !targets.contains(normalize($0)) } ?? true }
            intended = { kept.isEmpty ? ($0 == nil || $0 == .null || $0 == .list([])) : $0 == .list(kept) }
        case .scalar(let text)?:
            let items = FrontMatter.splitList(text), kept = items.filter { !targets.contains(normalize($0)) }
            let joined = kept.joined(separator: text.contains(",") ? ", " : " ")
            intended = { kept.count == items.count ? $0 == before : joined.isEmpty ? $0 == .null : $0 == .scalar(joined) }
        default: intended = { $0 == before }
        }
        // Nothing found on the lines to remove must mean nothing to remove: else the lines were misread.
        func nothingRemoved() throws(FrontMatterEditRefusal) -> [String] {
            if !intended(before) { throw FrontMatterEditRefusal(key: key) }
            return []
        }
        guard let entry = Self.entries(in: lines).first(where: { $0.key.isIdentical(to: key) }) else { return try nothingRemoved() }
        let keyLine = lines[entry.keyLine]
        let content = Lines.content(keyLine)
        let (valuePart, comment) = YAMLScalar.splitComment(content[entry.valueStart...])
        let value = valuePart.trimmingBlanks
        let head = content[..<entry.valueStart]
        var removed: [String] = []

        if value.isEmpty {
            let items = blockItems(of: entry, in: lines)
            for item in items.reversed() where targets.contains(normalize(item.value)) {
                lines.removeSubrange(item.line..<item.end)
                removed.insert(item.value, at: 0)
            }
            // A block list emptied takes its key with it (a comment on the key's line keeps it):
            // `tags add x` then `tags remove x` gives the note back byte for byte.
            if !removed.isEmpty, removed.count == items.count, comment.isEmpty {
                lines.remove(at: entry.keyLine)
            }
        } else if Self.isNull(value) {
            return try nothingRemoved()
        } else if let flow = YAMLScalar.flowItems(value) {
            var kept: [Substring] = []
            for raw in flow {
                let text = YAMLScalar.text(of: raw)
                if targets.contains(normalize(text)) { removed.append(text) } else { kept.append(raw) }
            }
            if removed.isEmpty { return try nothingRemoved() }
            let newLine = head + valuePart.prefix(while: { $0 == " " || $0 == "\t" })
                + "[" + kept.joined(separator: ", ") + "]" + comment + ending(of: keyLine)
            lines[entry.keyLine] = String(newLine)
        } else {
            let current = YAMLScalar.text(of: value)
            let separator = current.contains(",") ? ", " : " "
            var kept: [String] = []
            for item in FrontMatter.splitList(current) {
                if targets.contains(normalize(item)) { removed.append(item) } else { kept.append(item) }
            }
            if removed.isEmpty { return try nothingRemoved() }
            let joined = kept.joined(separator: separator)
            let isPlain = value.first != "\"" && value.first != "'"
            let rendered = joined.isEmpty ? "" : " " + (isPlain && !YAMLScalar.needsQuotes(joined, inFlow: false) ? joined : YAMLScalar.doubleQuoted(joined))
            lines.replaceSubrange(entry.keyLine..<entry.end,
                                  with: [String(head + rendered + comment + ending(of: keyLine))])
        }
        if removed.isEmpty { return try nothingRemoved() }
        try keep([lines], key: key, intended)
        return removed
    }

    /// One item of a list as `arrangeItems` writes it: an item the list holds (by its index among
    /// the list's items), or a new one.
    public enum ListSlot: Sendable, Equatable {
        case existing(Int)
        case new(String)
    }

    /// Rewrites a non-empty list key's items in the order of `slots`, in the key's own style;
    /// existing items keep their text as written. Returns false (and changes nothing) when the key
    /// is not such a list, or a block list has comment or blank lines between its items.
    @discardableResult
    public mutating func arrangeItems(of key: String, _ slots: [ListSlot]) -> Bool {
        var lines = blockLines
        guard let entry = Self.entries(in: lines).first(where: { $0.key.isIdentical(to: key) }) else { return false }
        // What the key must read as afterwards: the slots, by the items the key holds.
        let intended: YAMLValue?
        switch frontMatter[key] {
        case .list(let present)?:
            intended = slots.allSatisfy({ if case .existing(let i) = $0 { return present.indices.contains(i) } else { return true } })
                ? .list(slots.map { if case .existing(let i) = $0 { present[i] } else if case .new(let t) = $0 { .scalar(t) } else { .null } })
                : nil
        case .scalar(let text)?:
            let present = FrontMatter.splitList(text)
            intended = slots.allSatisfy({ if case .existing(let i) = $0 { return present.indices.contains(i) } else { return true } })
                ? .scalar(slots.map { if case .existing(let i) = $0 { present[i] } else if case .new(let t) = $0 { t } else { "" } }
                    .joined(separator: text.contains(",") ? ", " : " "))
                : nil
        default: intended = nil
        }
        let keyLine = lines[entry.keyLine]
        let content = Lines.content(keyLine)
        let (valuePart, comment) = YAMLScalar.splitComment(content[entry.valueStart...])
        let value = valuePart.trimmingBlanks
        let head = content[..<entry.valueStart]
        if value.isEmpty {
            let items = blockItems(of: entry, in: lines)
            guard let first = items.first, let last = items.last,
                  zip(items, items.dropFirst()).allSatisfy({ $0.end == $1.line }),
                  slots.allSatisfy({ if case .existing(let i) = $0 { return items.indices.contains(i) } else { return true } })
            else { return false }
            let prefix = itemPrefix(Lines.content(lines[first.line]))
            let ending = ending(of: lines[last.end - 1])
            var out: [String] = []
            for slot in slots {
                switch slot {
                case .existing(let i):
                    var taken = Array(lines[items[i].line..<items[i].end])
                    if Lines.terminator(taken[taken.count - 1]).isEmpty { taken[taken.count - 1] += ending }
                    out += taken
                case .new(let text): out.append(prefix + YAMLScalar.render(text) + ending)
                }
            }
            lines.replaceSubrange(first.line..<last.end, with: out)
        } else if !Self.isNull(value), let flow = YAMLScalar.flowItems(value), !flow.isEmpty {
            guard slots.allSatisfy({ if case .existing(let i) = $0 { return flow.indices.contains(i) } else { return true } })
            else { return false }
            let rendered = slots.map { slot -> String in
                switch slot {
                case .existing(let i): return String(flow[i])
                case .new(let text): return YAMLScalar.render(text, inFlow: true)
                }
            }
            lines[entry.keyLine] = String(head + valuePart.prefix(while: { $0 == " " || $0 == "\t" })
                + "[" + rendered.joined(separator: ", ") + "]" + comment + ending(of: keyLine))
        } else if !Self.isNull(value) {
            let current = YAMLScalar.text(of: value)
            let items = FrontMatter.splitList(current)
            guard slots.allSatisfy({ if case .existing(let i) = $0 { return items.indices.contains(i) } else { return true } })
            else { return false }
            let texts = slots.map { slot -> String in
                switch slot {
                case .existing(let i): return items[i]
                case .new(let text): return text
                }
            }
            let joined = texts.joined(separator: current.contains(",") ? ", " : " ")
            let isPlain = value.first != "\"" && value.first != "'"
            let rendered = joined.isEmpty ? "" : " " + (isPlain && !YAMLScalar.needsQuotes(joined, inFlow: false) ? joined : YAMLScalar.doubleQuoted(joined))
            lines.replaceSubrange(entry.keyLine..<entry.end, with: [String(head + rendered + comment + ending(of: keyLine))])
        } else {
            return false
        }
        do { try keep([lines], key: key) { intended != nil && $0 == intended } } catch { return false }
        return true
    }

    /// The top-level keys in order, each with its lines as written (the key line and the value
    /// lines under it). Used by the sync merge to carry one side's value over verbatim.
    public var keyedLines: [(key: String, lines: [String])] {
        let lines = blockLines
        return Self.entries(in: lines).map { ($0.key, Array(lines[$0.keyLine..<$0.end])) }
    }

    /// Replaces a key's lines with `newLines` (their line endings become this note's), or adds
    /// them after the key `after` (at the start when nil or absent, after the last key when the
    /// key is new and `after` is missing from this block).
    /// The key must read afterwards as `newLines` read alone.
    public mutating func replaceLines(of key: String, with newLines: [String], after: String?) throws(FrontMatterEditRefusal) {
        var lines = blockLines
        let converted = newLines.map { String(Lines.content($0)) + eol }
        let alone = try? FrontMatter(parsing: FrontMatterBlock(opening: "---" + eol, lines: converted, closing: "---" + eol))
        guard let alone, alone.entries.count == 1, alone.entries[0].key.isIdentical(to: key) else {
            throw FrontMatterEditRefusal(key: key)
        }
        let intended = alone.entries[0].value
        let entries = Self.entries(in: lines)
        if let entry = entries.first(where: { $0.key.isIdentical(to: key) }) {
            lines.replaceSubrange(entry.keyLine..<entry.end, with: converted)
        } else if let after, let previous = entries.first(where: { $0.key.isIdentical(to: after) }) {
            lines.insert(contentsOf: converted, at: previous.end)
        } else if after == nil {
            lines.insert(contentsOf: converted, at: entries.first?.keyLine ?? appendIndex(lines))
        } else {
            try keep(inserting: converted, into: lines, key: key) { $0 == intended }
            return
        }
        try keep([lines], key: key) { $0 == intended }
    }

    // MARK: - Keeping an edit only when it means what it intends

    /// Makes the first of `candidates` (the block's lines after an edit of `key`) that parses to
    /// this block's values with `key`'s value accepted by `intended` (nil: the key is gone) and
    /// every other key's value as it was, in order, the block. When none does, nothing changes.
    private mutating func keep(_ candidates: [[String]], key: String,
                               _ intended: (YAMLValue?) -> Bool) throws(FrontMatterEditRefusal) {
        let others = FrontMatter(entries: frontMatter.entries.filter { !$0.key.isIdentical(to: key) })
        for lines in candidates {
            var trial = self
            trial.blockLines = lines
            guard let block = trial.document.frontMatter, let after = try? FrontMatter(parsing: block) else { continue }
            let values = after.entries.filter { $0.key.isIdentical(to: key) }.map(\.value)
            guard values.count <= 1, intended(values.first),
                  FrontMatter(entries: after.entries.filter { !$0.key.isIdentical(to: key) }) == others else { continue }
            self = trial
            return
        }
        throw FrontMatterEditRefusal(key: key)
    }

    /// Inserts a new key's lines after the block's last non-blank line, where a trailing blank
    /// line stays last; or, when that changes another value (blank lines a block scalar keeps),
    /// at the very end of the block.
    private mutating func keep(inserting added: [String], into lines: [String], key: String,
                               _ intended: (YAMLValue?) -> Bool) throws(FrontMatterEditRefusal) {
        var beforeBlanks = lines, atEnd = lines
        beforeBlanks.insert(contentsOf: added, at: appendIndex(lines))
        // A last line without a line break (a block ending the file) gets one before the key.
        if let last = atEnd.last, Lines.terminator(last).isEmpty { atEnd[atEnd.count - 1] += eol }
        atEnd += added
        try keep([beforeBlanks, atEnd], key: key, intended)
    }

    // MARK: - The block's lines

    private var eol: String { document.lineEnding }

    /// The YAML lines; setting them on a note without front-matter creates a block.
    private var blockLines: [String] {
        get { document.frontMatter?.lines ?? [] }
        set {
            if document.frontMatter == nil {
                document.frontMatter = FrontMatterBlock(opening: "---" + eol, lines: newValue, closing: "---" + eol)
            } else {
                document.frontMatter!.lines = newValue
            }
        }
    }

    private func ending(of line: String) -> String {
        let t = Lines.terminator(line)
        return t.isEmpty ? eol : t
    }

    /// New keys go after the last non-blank line, so a trailing blank line stays last.
    private func appendIndex(_ lines: [String]) -> Int {
        var i = lines.count
        while i > 0 && Lines.content(lines[i - 1]).isBlank { i -= 1 }
        return i
    }

    // MARK: - Finding keys

    struct Entry {
        var key: String
        var keyLine: Int
        /// One past the last line of the value.
        var end: Int
        /// Index just after the `:` in the key line's content.
        var valueStart: Substring.Index
    }

    struct BlockItem {
        var line: Int
        var end: Int
        var value: String
    }

    /// The top-level keys and the lines each spans. Blank and comment lines between two keys
    /// belong to neither, so removing a key leaves them.
    static func entries(in lines: [String]) -> [Entry] {
        var result: [Entry] = []
        var current: Entry? = nil
        var blockValue = false
        for (i, line) in lines.enumerated() {
            let content = Lines.content(line)
            guard let first = content.first else { continue }
            if first == "#" { continue }
            if first == " " || first == "\t" {
                if content.isBlank { continue }
                current?.end = i + 1
                continue
            }
            if first == "-" && (content.count == 1 || content.dropFirst().first == " " || content.dropFirst().first == "\t") && blockValue {
                current?.end = i + 1
                continue
            }
            if let (key, valueStart) = parseKey(content) {
                if let c = current { result.append(c) }
                current = Entry(key: key, keyLine: i, end: i + 1, valueStart: valueStart)
                blockValue = YAMLScalar.splitComment(content[valueStart...]).value.isBlank
            }
        }
        if let c = current { result.append(c) }
        return result
    }

    /// Reads `key:` at the start of a line: a plain or quoted key followed by `:` and a blank
    /// or the end of the line.
    static func parseKey(_ content: Substring) -> (String, Substring.Index)? {
        guard let first = content.first else { return nil }
        if first == "\"" || first == "'" {
            var i = content.index(after: content.startIndex)
            while i < content.endIndex {
                if content[i] == "\\" && first == "\"" { i = content.index(after: i); if i == content.endIndex { return nil } }
                else if content[i] == first {
                    let next = content.index(after: i)
                    if first == "'" && next < content.endIndex && content[next] == "'" { i = content.index(after: next); continue }
                    var j = next
                    while j < content.endIndex && (content[j] == " " || content[j] == "\t") { j = content.index(after: j) }
                    guard j < content.endIndex, content[j] == ":" else { return nil }
                    let afterColon = content.index(after: j)
                    guard afterColon == content.endIndex || content[afterColon] == " " || content[afterColon] == "\t" else { return nil }
                    return (YAMLScalar.text(of: content[..<next]), afterColon)
                }
                i = content.index(after: i)
            }
            return nil
        }
        if "[]{}&*!|>%@`,?-".contains(first) { return nil }
        var i = content.startIndex
        while i < content.endIndex {
            if content[i] == ":" {
                let next = content.index(after: i)
                if next == content.endIndex || content[next] == " " || content[next] == "\t" {
                    return (String(content[..<i].trimmingTrailingBlanks), next)
                }
            } else if content[i] == " " || content[i] == "\t" {
                let next = content.index(after: i)
                if next < content.endIndex && content[next] == "#" { return nil }
            }
            i = content.index(after: i)
        }
        return nil
    }

    /// The items of a block list value: `- item` lines at the list's own indentation, each with
    /// the nested lines that follow it.
    func blockItems(of entry: Entry, in lines: [String]) -> [BlockItem] {
        var items: [BlockItem] = []
        var itemIndent: Int? = nil
        for i in (entry.keyLine + 1)..<entry.end {
            let content = Lines.content(lines[i])
            let indent = content.prefix(while: { $0 == " " || $0 == "\t" }).count
            let rest = content.dropFirst(indent)
            let isItem = rest.first == "-" && (rest.count == 1 || rest.dropFirst().first == " " || rest.dropFirst().first == "\t")
            if isItem && (itemIndent == nil || itemIndent == indent) {
                itemIndent = indent
                let raw = YAMLScalar.splitComment(rest.dropFirst()).value
                items.append(BlockItem(line: i, end: i + 1, value: YAMLScalar.text(of: raw)))
            } else if !content.isBlank && !(rest.first == "#"), !items.isEmpty {
                items[items.count - 1].end = i + 1
            }
        }
        return items
    }

    /// The text before an item's value: `  - ` in `  - travel`.
    private func itemPrefix(_ content: Substring) -> String {
        let indent = content.prefix(while: { $0 == " " || $0 == "\t" })
        let afterDash = content.dropFirst(indent.count + 1)
        let gap = afterDash.prefix(while: { $0 == " " || $0 == "\t" })
        return String(indent) + "-" + (gap.isEmpty ? " " : String(gap))
    }

    /// The item prefix other block lists in this block use, `  - ` when there are none.
    private func blockItemPrefix(_ lines: [String], entries: [Entry]) -> String {
        for entry in entries {
            if let item = blockItems(of: entry, in: lines).first, Lines.content(lines[entry.keyLine])[entry.valueStart...].isBlank {
                return itemPrefix(Lines.content(lines[item.line]))
            }
        }
        return "  - "
    }

    /// Whether a value as written is YAML's null (an empty list to the list operations).
    private static func isNull(_ value: Substring) -> Bool {
        ["~", "null", "Null", "NULL"].contains(value)
    }

    private static func renderKey(_ key: String) -> String {
        parseKey(Substring(key + ":"))?.0.isIdentical(to: key) == true ? key : YAMLScalar.doubleQuoted(key)
    }
}
