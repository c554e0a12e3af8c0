// The redaction every shown URL goes through, and the split of user-info off stored URLs.
import Testing
@testable import SheafGit

@Suite struct RemoteURLTests {
    @Test(arguments: [
        ("https://alice:TOKEN@host/notes.git", "https://***@host/notes.git"),
        ("https://TOKEN@host:8443/notes.git", "https://***@host:8443/notes.git"),
        ("HTTP://a:b@host", "HTTP://***@host"),
        ("https://al%40ice:p%3Ass@host/x", "https://***@host/x"),
        ("https://a:p@ss@host/x", "https://***@host/x"),
        ("ssh://git@host/notes.git", "ssh://git@host/notes.git"),
        ("ssh://git:pw@host/notes.git", "ssh://git:***@host/notes.git"),
        ("git@host:notes.git", "git@host:notes.git"),
        ("git:pw@host:notes.git", "***@host:notes.git"),
        ("git://host/notes.git", "git://host/notes.git"),
        ("file:///srv/notes.git", "file:///srv/notes.git"),
        ("/srv/notes.git", "/srv/notes.git"),
        ("see 'https://u:SECRET@h/r' and git://x:SECRET@y/z.", "see 'https://***@h/r' and git://***@y/z."),
    ])
    func userInfoIsMaskedInEveryShownURL(_ input: String, _ shown: String) {
        #expect(RemoteURL.redacting(input) == shown)
        #expect(!RemoteURL.redacting(input).contains("TOKEN") && !RemoteURL.redacting(input).contains("SECRET"))
    }

    @Test func storedURLsLoseTheirUserInfo() {
        let https = RemoteURL.withoutUserInfo("https://al%40ice:p%3Ass@host:8443/notes.git?x#y")
        #expect(https.url == "https://host:8443/notes.git?x#y")
        #expect(https.user == "al@ice")
        #expect(https.password == "p:ss")
        let token = RemoteURL.withoutUserInfo("https://TOKEN@host/notes.git")
        #expect(token.url == "https://host/notes.git" && token.user == "TOKEN" && token.password == nil)
        let ssh = RemoteURL.withoutUserInfo("ssh://git:pw@host/notes.git")
        #expect(ssh.url == "ssh://git@host/notes.git" && ssh.password == "pw")
        #expect(RemoteURL.withoutUserInfo("/srv/notes.git").url == "/srv/notes.git")
        #expect(RemoteURL.withoutUserInfo("git@host:notes.git").url == "git@host:notes.git")
        // libgit2 reads `git:pw@host:x` as the host `git`: no password is split off a URL read two ways.
        let scp = RemoteURL.withoutUserInfo("git:pw@host:notes.git")
        #expect(scp.url == "git:pw@host:notes.git" && scp.password == nil)
    }

    @Test(arguments: [
        ("https://alice:TOKEN@GitHub.com/me/notes.git", "github.com"),
        ("https://host:8443/notes.git", "host:8443"),
        ("ssh://git@github.com/me/notes.git", "github.com"),
        ("git@github.com:me/notes.git", "github.com"),
        ("git://127.0.0.1:9418/notes.git", "127.0.0.1:9418"),
        ("[::1]:notes.git", "[::1]"),
        ("https://[::1]:8443/x", "[::1]:8443"),
        ("file:///srv/notes.git", ""),
        ("/srv/notes.git", ""),
        ("../notes.git", ""),
    ])
    func aURLsHostIsWhatTrustIsJudgedBy(_ url: String, _ host: String) {
        #expect(RemoteURL.host(url) == host)
    }

    /// Regression (a hostile share list): the host was read by Characters and from the last `@`,
    /// so these named a host this device trusts while libgit2 connects to the first one, and the
    /// credential helper was asked for the trusted host's password, which went to the other.
    static let twoWayURLs: [(String, String?)] = [
        ("http://127.0.0.2/\u{301}@localhost/share.git", "127.0.0.2"),
        ("git@127.0.0.3:x@localhost:y", "127.0.0.3"),
        ("evil.example:x@localhost:repo", nil),
        ("git:pw@localhost:notes.git", nil),
        ("evil.invalid:\u{301}x/share.git", "evil.invalid"),
        ("https://a@b@localhost/x", nil),
        ("https://localhost\u{301}/x", nil),
        ("https://local%68ost/x", nil),
        ("https://localhost\\@evil/x", nil),
        ("https://m\u{FC}nchen.example/x", nil),
        ("https://host:80x/x", nil),
        ("ssh://git@[::1]:22/x", "[::1]:22"),
    ]

    @Test func aHostIsReadByBytesAsLibgit2ReadsItAndAURLReadTwoWaysHasNone() {
        for (url, host) in Self.twoWayURLs {
            #expect(RemoteURL.host(url) == host, "\(url.debugDescription)")
            #expect(host != nil || RemoteURL.withoutUserInfo(url).url == url, "left as it is: \(url.debugDescription)")
        }
    }

    @Test func noCredentialIsAskedForAURLReadTwoWays() {
        #expect(CredentialHelper.request(url: "http://127.0.0.2/\u{301}@localhost/share.git", user: nil)
            == "protocol=http\nhost=127.0.0.2\npath=\u{301}@localhost/share.git\n")
        #expect(CredentialHelper.request(url: "https://a@b@localhost/x", user: nil) == nil)
        #expect(CredentialHelper.request(url: "https://host/x%0Ahost=evil", user: nil) == nil)
        #expect(CredentialHelper.request(url: "https://Host:8443/me/notes.git?x#y", user: "al")
            == "protocol=https\nhost=Host:8443\npath=me/notes.git\nusername=al\n")
    }

    @Test func aPasswordBehindACombiningMarkIsStillMasked() {
        #expect(!RemoteURL.redacting("see https://me:TOKEN@\u{301}host/x").contains("TOKEN"))
        #expect(!RemoteURL.redacting("https:/\u{301}/me:TOKEN@host/x and https://u:SECRET@h/r").contains("SECRET"))
    }
}
