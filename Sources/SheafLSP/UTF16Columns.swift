// UTF-16 counts of a UTF-8 text's prefixes, for the protocol's characters (UTF-16 code units).
// Decoding each prefix anew made every position on one long line cost the line: a synced note of
// 170 KB on one line took seconds per request, and its references gigabytes (regression).

/// How many UTF-16 code units each prefix of a UTF-8 text holds, each answer reading at most
/// `stride` bytes.
struct UTF16Columns {
    private let bytes: [UInt8]
    /// The units of `bytes[0..<k * stride]`, for each k.
    private var sampled: [Int] = [0]
    private static let stride = 64

    /// `bytes` must be well-formed UTF-8 (a String's).
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        sampled.reserveCapacity(bytes.count / Self.stride + 1)
        var units = 0
        for i in bytes.indices {
            units += Self.units(bytes[i])
            if (i + 1) % Self.stride == 0 { sampled.append(units) }
        }
    }

    /// The units a byte adds: a scalar's first byte one, or two for a scalar past the Basic
    /// Multilingual Plane (four bytes in UTF-8, a surrogate pair in UTF-16); any other byte none.
    private static func units(_ byte: UInt8) -> Int {
        byte & 0xC0 == 0x80 ? 0 : (byte >= 0xF0 ? 2 : 1)
    }

    /// The UTF-16 units of `bytes[0..<offset]`.
    func units(before offset: Int) -> Int {
        let offset = max(0, min(offset, bytes.count))
        let k = offset / Self.stride
        var units = sampled[k]
        var i = k * Self.stride
        while i < offset { units += Self.units(bytes[i]); i += 1 }
        return units
    }
}
