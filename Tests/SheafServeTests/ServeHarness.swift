// What the server tests share: a real vault (made by `sheaf init`'s own code) with the files a
// test writes, served by the real router in process (HummingbirdTesting), and a browser that
// opened the printed URL once and holds the cookie it got.
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SheafCore
import SheafKit
import Testing
import TestSupport
@testable import SheafServe

final class ServedVault: Sendable {
    let temp: TempDir
    let root: String
    let server: SheafServer

    init(_ files: [String: String], options: ServeOptions = ServeOptions()) throws {
        temp = TempDir("serve")
        root = temp.path + "/vault"
        _ = try VaultSession.initialize(folder: root)
        for (path, text) in files { TestFile.write(text, to: root + "/" + path) }
        server = SheafServer(vault: try VaultSession.open(explicit: root, environment: [:], workingDirectory: root).vault, options: options)
    }

    func writeBytes(_ bytes: [UInt8], _ path: String) { TestFile.write(bytes, to: root + "/" + path) }

    /// Runs `body` with a browser that opened the server's URL (so it holds the cookie).
    func browse<T: Sendable>(_ body: @escaping @Sendable (Browser) async throws -> T) async throws -> T {
        let token = server.token
        return try await server.application().test(.router) { client in
            let opened = try await client.execute(uri: "/?token=\(token)", method: .get)
            let cookie = try #require(opened.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            return try await body(Browser(client: client, cookie: cookie))
        }
    }
}

/// A response as a test reads it.
struct Page: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: String
}

struct Browser: Sendable {
    let client: any TestClientProtocol
    let cookie: String?

    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> Page {
        var fields = headers
        if let cookie { fields[.cookie] = cookie }
        let r = try await client.execute(uri: uri, method: .get, headers: fields)
        return Page(status: r.status, headers: r.headers, body: String(buffer: r.body))
    }

    /// Submits a form as a browser does (fields url-encoded, line breaks as CRLF).
    func post(_ uri: String, _ form: [String: String]) async throws -> Page {
        var fields: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let cookie { fields[.cookie] = cookie }
        let body = form.map { name, value in
            WebPaths.encode(name) + "=" + WebPaths.encode(value.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n"))
        }.joined(separator: "&")
        let r = try await client.execute(uri: uri, method: .post, headers: fields, body: ByteBuffer(string: body))
        return Page(status: r.status, headers: r.headers, body: String(buffer: r.body))
    }
}

/// The value of the first `<input name="NAME" value="...">` of a page.
func formValue(_ html: String, _ name: String) -> String? {
    guard let start = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
    return html[start.upperBound...].split(separator: "\"", maxSplits: 1).first.map(String.init)
}

/// The smallest PNG (1x1, transparent).
let tinyPNG: [UInt8] = [
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
    0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
    0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
    0x42, 0x60, 0x82,
]
