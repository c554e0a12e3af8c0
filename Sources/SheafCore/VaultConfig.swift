// `.sheaf/config.toml`: device-local settings, one `key = "value"` per line. Setting a key
// rewrites its line only; other lines and comments stay as they are.
import Foundation

public struct VaultConfig: Sendable {
    public static let knownKeys = ["device", "remote"]
    private var lines: [String]

    public init(text: String) {
        lines = text.isEmpty ? [] : text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
    }

    public static func load(_ vault: Vault) -> VaultConfig {
        VaultConfig(text: (try? String(contentsOfFile: vault.configPath, encoding: .utf8)) ?? "")
    }

    public var text: String { lines.map { $0 + "\n" }.joined() }

    public subscript(key: String) -> String? {
        for line in lines {
            guard let (k, v) = Self.parse(line), k == key else { continue }
            return v
        }
        return nil
    }

    public mutating func set(_ key: String, _ value: String) {
        let rendered = key + " = " + Self.quote(value)
        if let i = lines.firstIndex(where: { Self.parse($0)?.0 == key }) {
            lines[i] = rendered
        } else {
            lines.append(rendered)
        }
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

    static func parse(_ line: String) -> (String, String)? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.hasPrefix("#"), let eq = trimmed.firstIndex(of: "=") else { return nil }
        let key = trimmed[..<eq].trimmingCharacters(in: .whitespaces)
        var value = trimmed[trimmed.index(after: eq)...].trimmingCharacters(in: .whitespaces)
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = String(value.dropFirst().dropLast())
                .replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\")
        }
        return (key, value)
    }

    static func quote(_ value: String) -> String {
        "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
