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
    public static func redacting(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let marker = rest.range(of: "://") {
            let scheme = String(rest[..<marker.lowerBound].reversed().prefix { isSchemeCharacter($0) }.reversed())
            let authorityStart = marker.upperBound
            let authorityEnd = rest[authorityStart...].firstIndex { isAuthorityEnd($0) } ?? rest.endIndex
            let authority = rest[authorityStart..<authorityEnd]
            result += rest[..<authorityStart]
            if let at = authority.lastIndex(of: "@") {
                let userInfo = authority[..<at]
                result += maskedUserInfo(String(userInfo), keepUser: isSSH(scheme)) + authority[at...]
            } else {
                result += authority
            }
            rest = rest[authorityEnd...]
        }
        result += rest
        return maskingSCPPassword(result)
    }

    /// A URL split into the URL without user-info, and the user name and password it held
    /// (percent-decoded). ssh URLs keep their user name, which selects the account.
    public static func withoutUserInfo(_ url: String) -> (url: String, user: String?, password: String?) {
        guard let marker = url.range(of: "://") else { return scpWithoutPassword(url) }
        let scheme = String(url[..<marker.lowerBound])
        let authorityEnd = url[marker.upperBound...].firstIndex { isAuthorityEnd($0) } ?? url.endIndex
        let authority = url[marker.upperBound..<authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return (url, nil, nil) }
        let userInfo = authority[..<at]
        let user: Substring, password: Substring?
        if let colon = userInfo.firstIndex(of: ":") {
            user = userInfo[..<colon]
            password = userInfo[userInfo.index(after: colon)...]
        } else {
            user = userInfo
            password = nil
        }
        let decodedUser = user.isEmpty ? nil : (user.removingPercentEncoding ?? String(user))
        let decodedPassword = password.map { $0.removingPercentEncoding ?? String($0) }
        let host = authority[authority.index(after: at)...]
        let keep = isSSH(scheme) && !user.isEmpty ? user + "@" : ""
        let stripped = url[..<marker.upperBound] + keep + host + url[authorityEnd...]
        return (String(stripped), decodedUser, decodedPassword)
    }

    /// Whether the URL is http or https (the schemes whose credentials go through git's helpers).
    public static func isHTTP(_ url: String) -> Bool {
        let lower = url.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The folder a URL names on this machine (a plain path or `file://`), nil for a URL that
    /// goes through a network transport (a scheme, or scp-like `host:path`, as git reads them).
    public static func localPath(_ url: String) -> String? {
        if url.lowercased().hasPrefix("file://") { return String(url.dropFirst("file://".count)) }
        if url.contains("://") { return nil }
        // git: a colon before the first slash makes `host:path` (ssh).
        let head = url[..<(url.firstIndex(of: "/") ?? url.endIndex)]
        return head.contains(":") ? nil : url
    }

    /// The machine a URL reaches, as trust is judged (`sheaf` joins a share a synced list names
    /// only on a host this device already syncs with): "" for this machine (a plain path or
    /// `file://`), else the host with its port, lower-cased, without user-info, for
    /// `scheme://` and scp-like `host:path` alike (so `git@github.com:x` and
    /// `https://github.com/x` name the same host). nil when no host can be read.
    public static func host(_ url: String) -> String? {
        if localPath(url) != nil { return "" }
        let authority: Substring
        if let marker = url.range(of: "://") {
            let end = url[marker.upperBound...].firstIndex { isAuthorityEnd($0) } ?? url.endIndex
            authority = url[marker.upperBound..<end]
        } else {
            // scp-like `[user@]host:path`: the host ends at its colon (after `]` for IPv6).
            let head = url[..<(url.firstIndex(of: "/") ?? url.endIndex)]
            let afterUser = head[(head.lastIndex(of: "@").map { head.index(after: $0) } ?? head.startIndex)...]
            let searchFrom = afterUser.hasPrefix("[") ? (afterUser.firstIndex(of: "]") ?? afterUser.startIndex) : afterUser.startIndex
            guard let colon = afterUser[searchFrom...].firstIndex(of: ":") else { return nil }
            authority = afterUser[..<colon]
        }
        var host = authority[(authority.lastIndex(of: "@").map { authority.index(after: $0) } ?? authority.startIndex)...]
        if host.hasSuffix(":") { host = host.dropLast() }
        return host.isEmpty ? nil : host.lowercased()
    }

    // MARK: - Helpers

    /// scp-like `user:password@host:path`: the password split off, the user kept.
    private static func scpWithoutPassword(_ url: String) -> (url: String, user: String?, password: String?) {
        let head = url[..<(url.firstIndex(of: "/") ?? url.endIndex)]
        guard let at = head.lastIndex(of: "@"), let colon = head[..<at].firstIndex(of: ":"),
              head[head.index(after: at)...].contains(":") else { return (url, nil, nil) }
        let user = String(url[..<colon])
        let password = String(url[url.index(after: colon)..<at])
        return (user + url[at...], user, password)
    }

    private static func isSchemeCharacter(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || c == "+" || c == "-" || c == ".")
    }

    private static func isAuthorityEnd(_ c: Character) -> Bool {
        c == "/" || c == "?" || c == "#" || c.isWhitespace || c == "'" || c == "\"" || c == "<" || c == ">"
    }

    private static func isSSH(_ scheme: String) -> Bool {
        ["ssh", "git+ssh", "ssh+git"].contains(scheme.lowercased())
    }

    private static func maskedUserInfo(_ userInfo: String, keepUser: Bool) -> String {
        guard keepUser else { return mask }
        guard let colon = userInfo.firstIndex(of: ":") else { return userInfo }
        return userInfo[..<colon] + ":" + mask
    }

    /// scp-like `user:password@host:path` words (no scheme): the user-info is masked.
    private static func maskingSCPPassword(_ text: String) -> String {
        guard text.contains("@") else { return text }
        var current = Substring()
        var output = ""
        for c in text {
            if c.isWhitespace || c == "'" || c == "\"" {
                output += maskSCPWord(current) + String(c)
                current = Substring()
            } else {
                current.append(c)
            }
        }
        output += maskSCPWord(current)
        return output
    }

    private static func maskSCPWord(_ word: Substring) -> String {
        guard !word.contains("://"), let at = word.lastIndex(of: "@") else { return String(word) }
        let userInfo = word[..<at]
        guard userInfo.contains(":"), !userInfo.contains("/") else { return String(word) }
        return mask + word[at...]
    }
}
