// Who may use the server, checked on every request before any route runs. The URL `sheaf serve`
// prints holds a random token (as Jupyter's does); opening it once trades the token for an
// HttpOnly, SameSite=Strict cookie and a redirect to the same page without it, so the token
// leaves the address bar and history. Every later request needs the cookie. The Host header must
// name this server (127.0.0.1, localhost, [::1] or the --listen address, on its port), so a page
// of another site whose name was rebound to 127.0.0.1 (DNS rebinding) is refused even though the
// browser connects here. Every response says what a page may load: its own scripts, styles and
// images only, no inline script, no framing, no MIME sniffing, no referrer.
import Foundation
import HTTPTypes
import Hummingbird
import SheafCore
import Synchronization

/// The server's secret and the names it answers to.
final class AccessGuard: Sendable {
    let token: String
    /// What every form of a page carries in its `csrf` field, and every write must give back:
    /// only a page of this server can read it, so no other site can make the browser write.
    let formToken = AccessGuard.newToken()
    private let names: Set<String>
    private let boundPort = Mutex<Int?>(nil)
    /// Served over TLS: the cookie is `Secure` (a browser never sends it over plain http).
    let secure: Bool

    init(token: String = AccessGuard.newToken(), listen: String, secure: Bool = false) {
        self.token = token
        self.secure = secure
        var names: Set<String> = ["127.0.0.1", "localhost", "[::1]"]
        let listen = listen.lowercased()
        if listen != "0.0.0.0" && listen != "::" && !listen.isEmpty {
            names.insert(listen.contains(":") && !listen.hasPrefix("[") ? "[\(listen)]" : listen)
        }
        self.names = names
    }

    /// 32 random bytes as hex, from the system's generator (getrandom).
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// The cookie's name: one per port, so two servers on one machine keep apart.
    var cookieName: String { "sheaf-\(boundPort.withLock { $0 } ?? 0)" }

    func bound(port: Int) { boundPort.withLock { $0 = port } }

    /// Whether a Host header names this server: one of its names, and its port when given.
    func allowsHost(_ authority: String?) -> Bool {
        guard let authority = authority?.lowercased(), !authority.isEmpty else { return false }
        var host = Substring(authority)
        var port: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") { port = after.dropFirst() } else if !after.isEmpty { return false }
            host = host[...close]
        } else if let colon = host.lastIndex(of: ":") {
            port = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard names.contains(String(host)) else { return false }
        guard let port else { return true }
        return Int(port) == boundPort.withLock { $0 }
    }

    /// Whether a form came from a page of this server.
    func formIsOurs(_ fields: [String: String]) -> Bool {
        fields["csrf"].map { Self.same($0, formToken) } ?? false
    }

    /// Whether `candidate` is the access token.
    func matches(_ candidate: some StringProtocol) -> Bool { Self.same(candidate, token) }

    /// Compares without stopping at the first differing byte.
    static func same(_ candidate: some StringProtocol, _ secret: String) -> Bool {
        let a = Array(candidate.utf8), b = Array(secret.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    func hasCookie(_ request: Request) -> Bool {
        request.cookies[cookieName].map { matches($0.value) } ?? false
    }
}

/// What every page may load. `/file/` responses add `sandbox` (AttachmentRoutes).
enum SecurityHeaders {
    static let policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    static func add(to response: inout Response) {
        if response.headers[.contentSecurityPolicy] == nil { response.headers[.contentSecurityPolicy] = policy }
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
    }
}

/// The guard as the router's first middleware.
struct AccessMiddleware<Context: RequestContext>: RouterMiddleware {
    let access: AccessGuard

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await check(request, context: context, next: next)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        SecurityHeaders.add(to: &response)
        return response
    }

    private func check(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard access.allowsHost(request.head.authority) else {
            return Page.plain(.misdirectedRequest, "This server answers to 127.0.0.1 and localhost only (the Host header named another).")
        }
        let fields = WebPaths.fields(request.uri.query)
        if let given = fields["token"] {
            guard access.matches(given), request.method == .get else {
                return Page.plain(.unauthorized, "The token in this address is not this server's. Open the address `sheaf serve` printed.")
            }
            // Back to the page asked for, never to another host (`//host/...` is one).
            let page = MarkdownHTML.isOwnOrigin(request.uri.path) ? request.uri.path : "/"
            var response = Response.redirect(to: page, type: .found)
            response.setCookie(Cookie(name: access.cookieName, value: access.token, path: "/", secure: access.secure, httpOnly: true, sameSite: .strict))
            return response
        }
        guard access.hasCookie(request) else {
            return Page.plain(.unauthorized, "Open the address `sheaf serve` printed (it holds the access token) to use this server.")
        }
        return try await next(request, context)
    }
}
