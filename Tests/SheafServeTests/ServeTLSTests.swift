// `sheaf serve --tls-cert --tls-key`: https on a real socket, checked with curl trusting only a
// certificate openssl made for the test; the cookie is Secure and the printed URL https; a TLS
// server may listen beyond loopback; each bad file is refused before the server starts, named.
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SheafCore
import Synchronization
import Testing
import TestSupport
@testable import SheafServe

/// A self-signed certificate for localhost and 127.0.0.1, and its key, made by openssl.
struct TestCertificate {
    let cert: String
    let key: String

    init(in folder: String, name: String = "server") throws {
        cert = folder + "/\(name).crt"
        key = folder + "/\(name).key"
        let made = runProcess("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            "-keyout", key, "-out", cert,
        ], in: folder)
        try #require(made.status == 0, "\(made.stderr)")
    }
}

/// curl (blocking, so on a Dispatch thread) trusting only `cacert`: the response's head and body.
func curl(_ arguments: [String], in folder: String) async -> RunResult {
    await withCheckedContinuation { done in
        DispatchQueue.global().async {
            done.resume(returning: runProcess("/usr/bin/curl", ["--silent", "--show-error", "--max-time", "20", "--include"] + arguments, in: folder))
        }
    }
}

@Suite struct ServeTLSTests {
    @Test func tlsOptionsServeHttpsWithASecureCookieAndAnHttpsURL() async throws {
        let temp = TempDir("serve-tls")
        let certificate = try TestCertificate(in: temp.path)
        var options = ServeOptions()
        options.port = 0
        options.tls = ServeTLS(certificateFile: certificate.cert, keyFile: certificate.key)
        let served = try ServedVault(["Hello.md": "# Hello\n\nsecret words\n"], options: options)
        let printed = Mutex<String?>(nil)
        let app = try served.server.application(running: { url in printed.withLock { $0 = url } })
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let url = try #require(printed.withLock { $0 })
            #expect(url == "https://127.0.0.1:\(port)/?token=\(served.server.token)")

            let opened = await curl(["--cacert", certificate.cert, url], in: temp.path)
            #expect(opened.status == 0, "\(opened.stderr)")
            let cookieLine = try #require(opened.stdout.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") }, "\(opened.stdout)")
            #expect(cookieLine.contains("Secure") && cookieLine.contains("HttpOnly") && cookieLine.contains("SameSite=Strict"))
            let cookie = String(cookieLine.dropFirst("set-cookie: ".count).split(separator: ";")[0])

            let note = await curl(["--cacert", certificate.cert, "--cookie", cookie, "https://localhost:\(port)/n/Hello.md"], in: temp.path)
            #expect(note.status == 0 && note.stdout.hasPrefix("HTTP/1.1 200") && note.stdout.contains("secret words"), "\(note.stderr)")

            // Plain http on the https port gets no page.
            let plain = await curl(["--cookie", cookie, "http://127.0.0.1:\(port)/n/Hello.md"], in: temp.path)
            #expect(!plain.stdout.contains("secret words"))
            // A client that does not trust the certificate stops before sending anything.
            let untrusted = await curl(["--cookie", cookie, "https://127.0.0.1:\(port)/n/Hello.md"], in: temp.path)
            #expect(untrusted.status != 0 && !untrusted.stdout.contains("secret words"))
        }
    }

    @Test func withTLSTheServerMayListenBeyondThisMachine() {
        var options = ServeOptions()
        options.address = "0.0.0.0"
        #expect(options.refusal() != nil)
        options.tls = ServeTLS(certificateFile: "server.crt", keyFile: "server.key")
        #expect(options.refusal() == nil && options.scheme == "https")
    }

    @Test func aMissingUnreadableOrMismatchedCertificateOrKeyIsRefusedNamingTheFile() throws {
        let temp = TempDir("serve-tls-bad")
        let good = try TestCertificate(in: temp.path)
        let other = try TestCertificate(in: temp.path, name: "other")
        TestFile.write("not a certificate\n", to: temp.path + "/junk.pem")
        let cases: [(cert: String, key: String, words: String, path: String)] = [
            (temp.path + "/missing.crt", good.key, "cannot read the TLS certificate file", temp.path + "/missing.crt"),
            (good.cert, temp.path + "/missing.key", "cannot read the TLS key file", temp.path + "/missing.key"),
            (temp.path, good.key, "cannot read the TLS certificate file", temp.path),
            (temp.path + "/junk.pem", good.key, "holds no PEM certificate", temp.path + "/junk.pem"),
            (good.cert, temp.path + "/junk.pem", "holds no PEM private key", temp.path + "/junk.pem"),
            (good.key, good.key, "holds no PEM certificate", good.key),
            (good.cert, other.key, "does not belong to the certificate", other.key),
        ]
        let served = try ServedVault([:])
        for c in cases {
            var options = ServeOptions()
            options.tls = ServeTLS(certificateFile: c.cert, keyFile: c.key)
            let server = SheafServer(vault: served.server.vault, options: options)
            #expect {
                _ = try server.application()
            } throws: { error in
                guard let error = error as? SheafError else { return false }
                return error.what.contains(c.words) && error.path == c.path
            }
        }
        var options = ServeOptions()
        options.tls = ServeTLS(certificateFile: good.cert, keyFile: good.key)
        #expect(throws: Never.self) { _ = try SheafServer(vault: served.server.vault, options: options).application() }
    }
}
