// `file://` URIs, the way editors name files, to and from paths. Anything else (`untitled:`,
// `git:`, a remote scheme) names no file of a vault, and the server answers it with nothing.
import Foundation

enum DocumentURI {
    /// The absolute path a `file://` URI names, nil for another scheme or a malformed one.
    static func path(_ uri: String) -> String? {
        guard uri.hasPrefix("file://") else { return nil }
        var rest = Substring(uri.dropFirst("file://".count))
        if rest.hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
        guard rest.hasPrefix("/"), let decoded = String(rest).removingPercentEncoding, !decoded.contains("\0") else { return nil }
        return decoded
    }

    /// The `file://` URI of an absolute path, every byte but unreserved ones and `/` escaped.
    static func uri(_ path: String) -> String {
        var out = "file://"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}
