// `--tls-cert FILE --tls-key FILE`: the server speaks https itself (HummingbirdTLS over
// swift-nio-ssl), so it may listen where other machines reach it without `--insecure-listen`.
// Both files are read and checked before the server starts, each failure named with its file:
// a file that cannot be read, one that holds no PEM certificate or key, and a key that does not
// belong to the certificate (BoringSSL's own check, made by building the context once here).
import Foundation
import HummingbirdTLS
import NIOSSL
import SheafCore

/// The certificate chain and key `sheaf serve` answers https with.
public struct ServeTLS: Sendable {
    public var certificateFile: String
    public var keyFile: String

    public init(certificateFile: String, keyFile: String) {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }

    /// The server's TLS configuration from the two PEM files; a SheafError naming the file at fault.
    func configuration() throws(SheafError) -> TLSConfiguration {
        let chainBytes = try Self.read(certificateFile, what: "certificate")
        let keyBytes = try Self.read(keyFile, what: "key")
        let chain = (try? NIOSSLCertificate.fromPEMBytes(chainBytes)) ?? []
        guard !chain.isEmpty else {
            throw SheafError("the TLS certificate file holds no PEM certificate", path: certificateFile,
                             hint: "give --tls-cert a PEM file (-----BEGIN CERTIFICATE-----), the server's certificate first")
        }
        guard let key = try? NIOSSLPrivateKey(bytes: keyBytes, format: .pem) else {
            throw SheafError("the TLS key file holds no PEM private key", path: keyFile,
                             hint: "give --tls-key the certificate's private key as an unencrypted PEM file (-----BEGIN PRIVATE KEY-----)")
        }
        let configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) },
                                                                     privateKey: .privateKey(key))
        do { _ = try NIOSSLContext(configuration: configuration) } catch {
            throw SheafError("the TLS key does not belong to the certificate", path: keyFile,
                             cause: "the certificate is \(certificateFile)",
                             hint: "give --tls-key the private key the certificate was made for")
        }
        return configuration
    }

    private static func read(_ path: String, what: String) throws(SheafError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw SheafError("cannot read the TLS \(what) file", path: path, cause: String(cString: strerror(errno)))
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        // A PEM chain is a few kilobytes; anything past 1 MB is not one.
        guard let data = try? handle.read(upToCount: 1 << 20) else {
            throw SheafError("cannot read the TLS \(what) file", path: path, cause: "it is not a readable file")
        }
        return Array(data)
    }
}
