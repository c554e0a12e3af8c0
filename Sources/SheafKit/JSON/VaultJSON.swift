// The one encoder of Sheaf's JSON documents (docs/json.md), so that `--json`, a web view and a
// language server write the same bytes for the same answer: keys sorted, slashes left as they
// are, dates ISO 8601 in UTC. Every document carries `version`.
import Foundation

public enum VaultJSON {
    /// The documents' `version`: a field is only ever added within a version.
    public static let version = 1

    /// One document: pretty (two-space indents, one key a line), or one line for a stream such
    /// as `watch --json`'s. The encoder escapes control characters in strings, so names go out
    /// exact and inert.
    public static func encode<T: Encodable>(_ value: T, pretty: Bool = true) throws -> Data {
        try encoder(pretty: pretty).encode(value)
    }

    /// Reads a document back (the same date format).
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: data)
    }

    private static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}
