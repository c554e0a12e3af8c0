// Vault paths in URLs and back: each name of a path percent-encoded (only letters, digits and
// `-._~` stay as they are), so no name can end a URL, start a query or break out of an attribute;
// and the fields of a query string or a form body. A path that comes back from a URL is only a
// lookup key: the path guard must accept it, and the pages look it up among the index's paths.
import Foundation
import SheafCore
import SheafFiles

enum WebPaths {
    private static let unreserved: Set<UInt8> = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8))

    /// `text` with every byte but the unreserved ones as `%XX`.
    static func encode(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for b in text.utf8 {
            if unreserved.contains(b) { out.unicodeScalars.append(Unicode.Scalar(b)) }
            else { out += "%" + String(b, radix: 16, uppercase: true).leftPadded }
        }
        return out
    }

    /// A vault path as a URL path under `prefix` (`/n`, `/f`, `/file`, `/thumb`): each name
    /// encoded, the slashes between them kept.
    static func url(_ prefix: String, _ path: String) -> String {
        path.isEmpty ? prefix + "/" : prefix + "/" + path.pathParts(omittingEmpty: false).map { encode(String($0)) }.joined(separator: "/")
    }

    /// What a request's URL path holds below `prefix`, percent-decoded; nil when it is not below
    /// it or does not decode to UTF-8.
    static func decoded(_ urlPath: String, under prefix: String) -> String? {
        guard urlPath.hasPrefix(prefix + "/") else { return urlPath == prefix ? "" : nil }
        let rest = urlPath.dropFirst(prefix.count + 1)
        guard let decoded = String(rest).removingPercentEncoding else { return nil }
        return decoded.hasByteSuffix("/") ? String(decoded.dropLast()) : decoded
    }

    /// The vault path a request's URL path names below `prefix` ("" for the root): only a path
    /// the vault's path guard accepts as written (no `.` or `..`, no empty name, no `.git` or
    /// `.sheaf` in any spelling), so no spelling of a URL reaches outside the vault's files.
    static func vaultPath(_ urlPath: String, under prefix: String) -> String? {
        guard let path = decoded(urlPath, under: prefix) else { return nil }
        return path.isEmpty || VaultPathGuard.refusal(path) == nil ? path : nil
    }

    /// The fields of `application/x-www-form-urlencoded` text (a query string or a form's
    /// body): `+` is a space, `%XX` a byte; the first of a repeated name wins.
    static func fields(_ text: String?) -> [String: String] {
        var out: [String: String] = [:]
        for pair in (text ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String? { s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = decode(parts[0]) else { continue }
            let value = parts.count > 1 ? decode(parts[1]) : ""
            if let value, out[name] == nil { out[name] = value }
        }
        return out
    }
}

private extension String {
    var leftPadded: String { count == 1 ? "0" + self : self }
}
