// `.sheaf/config.toml`: device-local settings. Read by a real TOML parser (TOMLKit, on toml++):
// a hand-made reader took `device = "laptop"  # my machine` to mean a device named
// `"laptop"  # my machine`, which then went into commit messages and conflict-file names.
// Setting a key rewrites that key's line only (its comment kept), so what a user wrote around it
// stays; the result is parsed again and must read back as intended before it is used.
import Foundation
import TOMLKit

public struct VaultConfig: Sendable {
    public static let knownKeys = ["device", "remote", "daily-folder", "daily-format", "daily-template", "templates-folder"]
    private var lines: [String]
    private var values: [String: String] = [:]
    /// Why the file could not be read as TOML (with its line), nil when it could. Settings then
    /// fall back to their defaults.
    public private(set) var problem: String?
    /// What the file holds that Sheaf does not read: unknown keys, tables (`[sync]`), values that
    /// are not strings; each a sentence for a warning.
    public private(set) var ignored: [String] = []

    public init(text: String) {
        lines = text.isEmpty ? [] : text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        lines = lines.map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
        (values, problem, ignored) = Self.read(text)
    }

    /// The settings a config file's bytes give: the defaults for a missing file (nil), and a
    /// `problem` for bytes that are not UTF-8. (`VaultConfig.load` in SheafFiles reads the file.)
    public init(contents data: Data?) {
        guard let data else { self.init(text: ""); return }
        guard let text = String(data: data, encoding: .utf8) else {
            self.init(text: "")
            problem = "the file is not UTF-8"
            return
        }
        self.init(text: text)
    }

    public var text: String { lines.map { $0 + "\n" }.joined() }

    /// A top-level string setting; nil when it is not set or not a string.
    public subscript(key: String) -> String? { values[key] }

    /// Sets a top-level key to a string. The key's line is rewritten in place, keeping its comment;
    /// a new key goes before the first table header. Throws when the file is not TOML Sheaf can
    /// rewrite line by line (a broken file, a multi-line value for this key), naming the cause.
    public mutating func set(_ key: String, _ value: String) throws(SheafError) {
        if let problem {
            throw SheafError("cannot change .sheaf/config.toml", cause: problem, hint: "fix or delete the file, then try again")
        }
        var edited = lines
        let rendered = Self.renderKey(key) + " = " + Self.quote(value)
        let firstTable = edited.firstIndex { $0.trimmingHorizontalWhitespace.hasPrefix("[") } ?? edited.count
        if let i = edited[..<firstTable].firstIndex(where: { Self.key(of: $0) == key }) {
            guard let comment = Self.comment(afterValueOf: edited[i]) else {
                throw SheafError("cannot change .sheaf/config.toml", cause: "the value of \(key) spans several lines",
                                 hint: "write it on one line, then try again")
            }
            edited[i] = rendered + comment
        } else {
            edited.insert(rendered, at: firstTable)
        }
        let text = edited.map { $0 + "\n" }.joined()
        let (read, problem, _) = Self.read(text)
        var expected = values
        expected[key] = value
        guard problem == nil, read == expected else {
            throw SheafError("cannot change .sheaf/config.toml", cause: problem ?? "the edited file did not read back as intended",
                             hint: "set it by hand: \(rendered)")
        }
        lines = edited
        values = read
    }

    /// This device's name: `device` from the config, else the host name.
    public var device: String {
        if let d = self["device"], !d.isEmpty { return d }
        return Self.hostName
    }

    public static var hostName: String {
        let name = ProcessInfo.processInfo.hostName
        let short = name.split(separator: ".").first.map(String.init) ?? name
        return short.isEmpty ? "device" : short
    }

    /// The top-level string values of a TOML document, or why it is not one.
    private static func read(_ text: String) -> ([String: String], String?, [String]) {
        if text.isEmpty { return ([:], nil, []) }
        if text.utf8.contains(0) { return ([:], "the file holds a NUL byte", []) }
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch let error as TOMLParseError {
            return ([:], "\(error.description) (line \(error.source.begin.line))", [])
        } catch {
            return ([:], "\(error)", [])
        }
        var values: [String: String] = [:]
        var ignored: [String] = []
        for key in table.keys.sorted() {
            if table[key]?.table != nil {
                ignored.append("[\(key)] is a table; Sheaf reads only top-level keys (\(knownKeys.joined(separator: ", ")))")
            } else if !knownKeys.contains(key) {
                ignored.append("unknown setting `\(key)`; known: \(knownKeys.joined(separator: ", "))")
            } else if let s = table[key]?.string {
                values[key] = s
            } else {
                ignored.append("`\(key)` is not a string (write it in quotes)")
            }
        }
        return (values, nil, ignored)
    }

    /// The key a `key = value` line sets (bare or quoted), nil for other lines.
    static func key(of line: String) -> String? {
        let t = line.trimmingHorizontalWhitespace
        guard let eq = t.firstIndex(of: "="), !t.hasPrefix("#"), !t.hasPrefix("[") else { return nil }
        var k = t[..<eq].trimmingHorizontalWhitespace
        if k.count >= 2, (k.hasPrefix("\"") && k.hasSuffix("\"")) || (k.hasPrefix("'") && k.hasSuffix("'")) {
            k = String(k.dropFirst().dropLast())
        }
        return k
    }

    /// What follows the value on a `key = value` line (blanks and a `# comment`), "" when nothing
    /// does; nil when the value does not end on this line.
    static func comment(afterValueOf line: String) -> String? {
        guard let eq = line.firstIndex(of: "=") else { return nil }
        let rest = line[line.index(after: eq)...].drop { $0 == " " || $0 == "\t" }
        var end = rest.endIndex
        if rest.hasPrefix("\"\"\"") || rest.hasPrefix("'''") { return nil }
        if let q = rest.first, q == "\"" || q == "'" {
            var i = rest.index(after: rest.startIndex)
            var closed = false
            while i < rest.endIndex {
                if q == "\"" && rest[i] == "\\" {
                    i = rest.index(after: i)
                    if i == rest.endIndex { break }
                } else if rest[i] == q { closed = true; end = rest.index(after: i); break }
                i = rest.index(after: i)
            }
            guard closed else { return nil }
        } else {
            end = rest.firstIndex(of: "#") ?? rest.endIndex
            while end > rest.startIndex, [" ", "\t"].contains(rest[rest.index(before: end)]) { end = rest.index(before: end) }
        }
        let tail = rest[end...]
        return tail.trimmingHorizontalWhitespace.isEmpty ? "" : String(tail)
    }

    static func renderKey(_ key: String) -> String {
        key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") } && !key.isEmpty ? key : quote(key)
    }

    /// A TOML basic string: the escapes are the ones YAML's double quotes use.
    static func quote(_ value: String) -> String { YAMLScalar.doubleQuoted(value) }
}
