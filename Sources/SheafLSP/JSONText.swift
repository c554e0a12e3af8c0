// Replies written as JSON bytes directly: Foundation's JSONSerialization bridges every
// dictionary and array to NSDictionary/NSArray on Linux, which was 40 % of the time of publishing
// a long note's diagnostics. Values are what the server builds: String, Int, Double, Bool, NSNull,
// arrays and string-keyed dictionaries of them. Strings are escaped as JSON requires (quotes,
// backslashes, every control character as \u00XX), so nothing raw reaches the client.
import Foundation

enum JSONText {
    static func encode(_ value: Any) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out)
        return out
    }

    private static func write(_ value: Any, into out: inout [UInt8]) {
        switch value {
        case let string as String: write(string, into: &out)
        case let flag as Bool: out += flag ? Array("true".utf8) : Array("false".utf8)
        case let number as Int: out += Array(String(number).utf8)
        case let number as Double: out += Array((number.isFinite ? String(number) : "null").utf8)
        case let object as [String: Any]:
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, item) in object {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                write(key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(item, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case let array as [Any]:
            out.append(UInt8(ascii: "["))
            for (i, item) in array.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(item, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        default: out += Array("null".utf8)  // NSNull, and nothing else the server builds
        }
    }

    private static func write(_ string: String, into out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20, 0x7F:
                out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
