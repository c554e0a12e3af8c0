// Who may use the server: the token of the printed URL becomes an HttpOnly SameSite cookie and
// every request needs it; a Host header naming another site is refused (DNS rebinding); every
// response limits what the page may load; --listen beyond loopback needs --insecure-listen.
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SheafCore
import Testing
import TestSupport
@testable import SheafServe

@Suite struct ServeAccessTests {
    @Test func everyRequestNeedsTheCookieThatOnlyTheTokenURLGives() async throws {
        let served = try ServedVault(["Hello.md": "# Hello\n\nsecret words\n"])
        let token = served.server.token
        try await served.server.application().test(.router) { client in
            let stranger = Browser(client: client, cookie: nil)
            for uri in ["/", "/n/Hello.md", "/file/Hello.md", "/search?q=secret", "/tags", "/assets/sheaf.js"] {
                let page = try await stranger.get(uri)
                #expect(page.status == .unauthorized, "\(uri)")
                #expect(!page.body.contains("secret words"))
            }
            #expect(try await stranger.get("/?token=" + String(repeating: "0", count: token.count)).status == .unauthorized)
            #expect(try await Browser(client: client, cookie: "sheaf-0=" + String(token.reversed())).get("/").status == .unauthorized)

            let opened = try await stranger.get("/n/Hello.md?token=\(token)")
            #expect(opened.status == .found)
            #expect(opened.headers[.location] == "/n/Hello.md")  // the token leaves the address bar
            let cookie = try #require(opened.headers[.setCookie])
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"))
            let browser = Browser(client: client, cookie: String(cookie.split(separator: ";")[0]))
            let note = try await browser.get("/n/Hello.md")
            #expect(note.status == .ok && note.body.contains("secret words"))
        }
    }

    @Test func theTokenURLNeverRedirectsToAnotherHost() async throws {
        let served = try ServedVault([:])
        let token = served.server.token
        try await served.server.application().test(.router) { client in
            for path in ["//evil.example/x", "/\\evil.example/x"] {
                let page = try await Browser(client: client, cookie: nil).get(path + "?token=\(token)")
                let location = page.headers[.location] ?? ""
                #expect(MarkdownHTML.isOwnOrigin(location), "\(path) -> \(location)")
            }
        }
    }

    @Test func everyResponseForbidsInlineScriptFramingAndSniffing() async throws {
        let served = try ServedVault(["Hello.md": "hi\n"])
        try await served.browse { browser in
            for uri in ["/", "/n/Hello.md", "/n/Missing.md", "/search?q=hi", "/assets/sheaf.css"] {
                let page = try await browser.get(uri)
                let policy = try #require(page.headers[.contentSecurityPolicy], "\(uri)")
                #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline") && policy.contains("default-src 'none'"))
                #expect(policy.contains("frame-ancestors 'none'"))
                #expect(page.headers[.xContentTypeOptions] == "nosniff")
            }
        }
        try await served.server.application().test(.router) { client in
            let refused = try await Browser(client: client, cookie: nil).get("/")
            #expect(refused.headers[.contentSecurityPolicy] != nil && refused.headers[.xContentTypeOptions] == "nosniff")
        }
    }

    /// A page of another site whose name was rebound to 127.0.0.1 reaches this port with its
    /// own name in Host: refused, cookie or not, on a real socket.
    @Test func aHostHeaderNamingAnotherSiteIsRefused() async throws {
        var options = ServeOptions()
        options.port = 0
        let served = try ServedVault(["Hello.md": "secret words\n"], options: options)
        let token = served.server.token
        try await served.server.application().test(.live) { client in
            let port = try #require(client.port)
            let opened = try await client.execute(uri: "/?token=\(token)", method: .get)
            let cookie = String(try #require(opened.headers[.setCookie]).split(separator: ";")[0])
            func status(host: String) async throws -> String {
                try await RawHTTP.statusLine(port: port, request: "GET /n/Hello.md HTTP/1.1\r\nHost: \(host)\r\nCookie: \(cookie)\r\nConnection: close\r\n\r\n")
            }
            #expect(try await status(host: "127.0.0.1:\(port)").contains(" 200 "))
            #expect(try await status(host: "localhost:\(port)").contains(" 200 "))
            for host in ["evil.example:\(port)", "evil.example", "127.0.0.1.evil.example:\(port)", "localhost:\(port + 1)", ""] {
                let line = try await status(host: host)
                #expect(!line.contains(" 200 ") && !line.isEmpty, "Host: \(host): \(line)")
            }
        }
    }

    @Test func listeningBeyondThisMachineNeedsInsecureListen() {
        for address in ["127.0.0.1", "127.8.0.1", "localhost", "::1"] {
            var options = ServeOptions()
            options.address = address
            #expect(options.refusal() == nil, "\(address)")
        }
        for address in ["0.0.0.0", "::", "192.168.1.20", "10.0.0.1", "example.org", "127.0.0.1.example.org"] {
            var options = ServeOptions()
            options.address = address
            #expect(options.refusal() != nil, "\(address)")
            options.insecureListen = true
            #expect(options.refusal() == nil)
        }
    }
}

/// One request on a raw socket, for headers a test client will not send as given, and for
/// a stream a test reads as it comes.
/// Its calls block, so they run on a Dispatch thread: on the test's own (Swift concurrency's
/// few threads) they could starve the server they wait for.
enum RawHTTP {
    static func statusLine(port: Int, request: String) async throws -> String {
        let fd = try open(port: port, request: request)
        defer { close(fd) }
        return await read(fd, until: nil).split(separator: "\r\n").first.map(String.init) ?? ""
    }

    /// What arrives on `fd` until it holds `text` (nil: until the server closes), at most 30 s.
    static func read(_ fd: Int32, until text: String?) async -> String {
        await withCheckedContinuation { done in
            DispatchQueue.global().async { done.resume(returning: readBlocking(fd, until: text)) }
        }
    }

    private static func readBlocking(_ fd: Int32, until text: String?) -> String {
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let deadline = Date().addingTimeInterval(30)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) { break }
            if n > 0 { received += buffer[0..<n] }
            if let text, String(decoding: received, as: UTF8.self).contains(text) { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// A connected socket that has sent `request`.
    static func open(port: Int, request: String) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); throw SheafError("cannot connect", path: "127.0.0.1:\(port)") }
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        return fd
    }
}
