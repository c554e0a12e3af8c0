// Remote URLs can carry secrets in their user-info (`https://user:TOKEN@host/repo`). Every place
// Sheaf shows a URL (errors, `remote list` text and JSON, sync reports) goes through `redacted`
// or `redacting`, and `remote add` / `clone` store the URL without its user-info
// (`withoutUserInfo`), handing the secret to git's credential helper instead.
import Foundation

/// Redaction and splitting of the user-info of remote URLs.
public enum RemoteURL {
    /// What stands in for hidden user-info.
    public static let mask = "***"

    /// The URL as it may be shown. In `scheme://userinfo@host/...` the user-info is replaced
    /// by `***`, except that an ssh user name stays (it is no secret; its password would be
    /// masked). In scp-like `user@host:path` a `user:password` pair is masked.
    public static func redacted(_ url: String) -> String {
        redacting(url)
    }

    /// `text` with the user-info of every URL in it masked (for libgit2 messages and paths).
    /// Read scalar by scalar: a combining mark after `@` or `/` must not hide a password.
    public static func redacting(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var i = 0
        while let marker = find(Array("://".unicodeScalars), in: scalars, from: i) {
            var schemeStart = marker
            while schemeStart > i, isSchemeScalar(scalars[schemeStart - 1]) { schemeStart -= 1 }
            let scheme = string(scalars[schemeStart..<marker])
            let authorityStart = marker + 3
            let authorityEnd = scalars[authorityStart...].firstIndex(where: isAuthorityEnd) ?? scalars.count
            result.append(contentsOf: scalars[i..<authorityStart])
            if let at = scalars[authorityStart..<authorityEnd].lastIndex(of: "@") {
                result.append(contentsOf: maskedUserInfo(scalars[authorityStart..<at], keepUser: isSSH(scheme)).unicodeScalars)
                result.append(contentsOf: scalars[at..<authorityEnd])
            } else {
                result.append(contentsOf: scalars[authorityStart..<authorityEnd])
            }
            i = authorityEnd
        }
        result.append(contentsOf: scalars[i...])
        return maskingSCPPassword(String(result))
    }

    /// A URL split into the URL without user-info, and the user name and password it held
    /// (percent-decoded). ssh URLs keep their user name, which selects the account. A URL
    /// `parts` cannot read comes back as it is, with neither (`sheaf remote add` refuses it).
    public static func withoutUserInfo(_ url: String) -> (url: String, user: String?, password: String?) {
        guard localPath(url) == nil, let parts = parts(url) else { return (url, nil, nil) }
        let user = parts.user.flatMap { $0.isEmpty ? nil : ($0.removingPercentEncoding ?? $0) }
        let password = parts.password.map { $0.removingPercentEncoding ?? $0 }
        let hostAndPort = parts.host + (parts.port.map { ":" + $0 } ?? "")
        guard let scheme = parts.scheme else {
            // scp-like: always ssh, whose user name stays.
            return ((parts.user.map { $0 + "@" } ?? "") + hostAndPort + ":" + parts.rest, user, password)
        }
        let keep = isSSH(scheme) && !(parts.user ?? "").isEmpty ? parts.user! + "@" : ""
        return (scheme + "://" + keep + hostAndPort + parts.rest, user, password)
    }

    /// Whether the URL is http or https (the schemes whose credentials go through git's helpers).
    public static func isHTTP(_ url: String) -> Bool {
        let lower = url.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The folder a URL names on this machine (a plain path or `file://`), nil for a URL that
    /// goes through a network transport (a scheme, or scp-like `host:path`, as git reads them).
    /// Read by bytes, as git reads it (a colon followed by a combining mark is still a colon).
    public static func localPath(_ url: String) -> String? {
        let bytes = Array(url.utf8)
        if bytes.count >= 7, String(decoding: bytes[0..<7], as: UTF8.self).lowercased() == "file://" {
            return String(decoding: bytes[7...], as: UTF8.self)
        }
        if schemeMarker(bytes) != nil { return nil }
        // git: a colon before the first slash makes `host:path` (ssh).
        let head = bytes[..<(bytes.firstIndex(of: UInt8(ascii: "/")) ?? bytes.count)]
        return head.contains(UInt8(ascii: ":")) ? nil : url
    }

    /// The machine a URL reaches, as trust is judged (`sheaf` joins a share a synced list names
    /// only on a host this device already syncs with): "" for this machine (a plain path or
    /// `file://`), else the host with its port, lower-cased, without user-info, for
    /// `scheme://` and scp-like `host:path` alike (so `git@github.com:x` and
    /// `https://github.com/x` name the same host). nil when no host can be read, or when the URL
    /// could be read as naming another (`parts`).
    public static func host(_ url: String) -> String? {
        if localPath(url) != nil { return "" }
        guard let parts = parts(url) else { return nil }
        return (parts.host + (parts.port.map { ":" + $0 } ?? "")).lowercased()
    }

    /// A network URL read as libgit2 reads it, byte by byte.
    public struct Parts: Equatable, Sendable {
        /// nil for scp-like `[user@]host:path`.
        public let scheme: String?
        public let user: String?
        public let password: String?
        public let host: String
        public let port: String?
        /// What follows the host (and port): `/path?query#fragment`, or an scp path after its colon.
        public let rest: String
    }

    /// The parts of a network URL, or nil (a local path, or a URL that two readers could take to
    /// name two hosts). The host ends at the first `/`, `?` or `#` byte after `://` (an scp
    /// host at its colon), as libgit2 and every URL parser end it; the user-info, if any, ends at
    /// the one `@` before it. Refused: a second `@` there (libgit2 takes the first, git's ssh and
    /// browsers the last), and a host that is not plain ASCII letters, digits, `.`, `-` and `_`
    /// or a bracketed IPv6 address, so no combining mark, percent sign or backslash can make a
    /// check that reads Characters or decodes see a host libgit2 does not connect to.
    public static func parts(_ url: String) -> Parts? {
        let bytes = Array(url.utf8)
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        let hostEnd: Int
        let scheme: String?
        let authority: Range<Int>
        var rest: Range<Int>
        if let marker = schemeMarker(bytes) {
            scheme = text(0..<marker)
            let start = marker + 3
            let end = bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
            authority = start..<end
            hostEnd = end
            rest = end..<bytes.count
        } else {
            guard localPath(url) == nil else { return nil }
            scheme = nil
            // scp-like: the host part ends at the first colon outside an IPv6 address's brackets.
            // A colon before the `@` is refused: libgit2 ends the host there (`evil:x@github.com:r`
            // is evil's), where a reader of the `@` would see github.com.
            let head = 0..<(bytes.firstIndex(of: UInt8(ascii: "/")) ?? bytes.count)
            let at = bytes[head].firstIndex(of: UInt8(ascii: "@"))
            if let at, bytes[head.lowerBound..<at].contains(UInt8(ascii: ":")) { return nil }
            let hostStart = at.map { $0 + 1 } ?? 0
            var colonFrom = hostStart
            if hostStart < head.upperBound, bytes[hostStart] == UInt8(ascii: "[") {
                guard let close = bytes[hostStart..<head.upperBound].firstIndex(of: UInt8(ascii: "]")) else { return nil }
                colonFrom = close
            }
            guard let colon = bytes[colonFrom..<head.upperBound].firstIndex(of: UInt8(ascii: ":")) else { return nil }
            authority = 0..<colon
            hostEnd = colon
            rest = (colon + 1)..<bytes.count
        }
        let ats = bytes[authority].indices.filter { bytes[$0] == UInt8(ascii: "@") }
        guard ats.count <= 1 else { return nil }
        var user: String?, password: String?
        var hostStart = authority.lowerBound
        if let at = ats.first {
            let info = authority.lowerBound..<at
            guard bytes[info].allSatisfy(isUserInfoByte) else { return nil }
            if let colon = bytes[info].firstIndex(of: UInt8(ascii: ":")) {
                user = text(info.lowerBound..<colon)
                password = text((colon + 1)..<info.upperBound)
            } else {
                user = text(info)
            }
            hostStart = at + 1
        }
        var hostRange = hostStart..<hostEnd
        var port: String?
        if scheme != nil, let colon = bytes[hostRange].lastIndex(of: UInt8(ascii: ":")),
           !bytes[colon...].contains(UInt8(ascii: "]")) {
            let digits = (colon + 1)..<hostEnd
            guard bytes[digits].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            if !digits.isEmpty { port = text(digits) }
            hostRange = hostStart..<colon
        }
        guard isPlainHost(bytes[hostRange]) else { return nil }
        if scheme == nil, rest.isEmpty { rest = hostEnd..<hostEnd }
        return Parts(scheme: scheme, user: user, password: password, host: text(hostRange), port: port, rest: text(rest))
    }

    /// Where `://` follows a scheme (ASCII letters, digits, `+`, `-`, `.`) at the URL's start.
    private static func schemeMarker(_ bytes: [UInt8]) -> Int? {
        var i = 0
        while i < bytes.count, isSchemeByte(bytes[i]) { i += 1 }
        guard i > 0, i + 2 < bytes.count, bytes[i] == UInt8(ascii: ":"), bytes[i + 1] == UInt8(ascii: "/"),
              bytes[i + 2] == UInt8(ascii: "/") else { return nil }
        return i
    }

    private static func isSchemeByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
    }

    /// RFC 3986's user-info: unreserved, percent-encoded, sub-delims and `:` (no backslash, which
    /// some parsers read as `/`).
    private static func isUserInfoByte(_ b: UInt8) -> Bool {
        isSchemeByte(b) || "_~%!$&'()*,;=:".utf8.contains(b)
    }

    /// A host name of ASCII letters, digits, `.`, `-`, `_`, or `[` an IPv6 address `]`.
    private static func isPlainHost(_ host: ArraySlice<UInt8>) -> Bool {
        guard let first = host.first else { return false }
        if first == UInt8(ascii: "[") {
            guard host.count > 2, host.last == UInt8(ascii: "]") else { return false }
            return host.dropFirst().dropLast().allSatisfy { isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
        }
        return host.allSatisfy { isSchemeByte($0) && $0 != UInt8(ascii: "+") || $0 == UInt8(ascii: "_") }
    }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "f"))
            || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "F"))
    }

    // MARK: - Helpers

    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        String(String.UnicodeScalarView(scalars))
    }

    private static func find(_ needle: [Unicode.Scalar], in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        guard scalars.count >= needle.count, start <= scalars.count - needle.count else { return nil }
        return (start...(scalars.count - needle.count)).first { scalars[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    private static func isSchemeScalar(_ s: Unicode.Scalar) -> Bool {
        s.isASCII && isSchemeByte(UInt8(s.value))
    }

    private static func isAuthorityEnd(_ s: Unicode.Scalar) -> Bool {
        "/?#'\"<>".unicodeScalars.contains(s) || s.properties.isWhitespace
    }

    private static func isSSH(_ scheme: String) -> Bool {
        ["ssh", "git+ssh", "ssh+git"].contains(scheme.lowercased())
    }

    private static func maskedUserInfo(_ userInfo: ArraySlice<Unicode.Scalar>, keepUser: Bool) -> String {
        guard keepUser else { return mask }
        guard let colon = userInfo.firstIndex(of: ":") else { return string(userInfo) }
        return string(userInfo[..<colon]) + ":" + mask
    }

    /// scp-like `user:password@host:path` words (no scheme): the user-info is masked.
    private static func maskingSCPPassword(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains("@") else { return text }
        var output = ""
        var wordStart = 0
        for (i, s) in scalars.enumerated() where s.properties.isWhitespace || s == "'" || s == "\"" {
            output += maskSCPWord(scalars[wordStart..<i]) + String(s)
            wordStart = i + 1
        }
        output += maskSCPWord(scalars[wordStart...])
        return output
    }

    private static func maskSCPWord(_ word: ArraySlice<Unicode.Scalar>) -> String {
        guard find(Array("://".unicodeScalars), in: Array(word), from: 0) == nil, let at = word.lastIndex(of: "@") else { return string(word) }
        let userInfo = word[..<at]
        guard userInfo.contains(":"), !userInfo.contains("/") else { return string(word) }
        return mask + string(word[at...])
    }
}
