// Why: Sheaf names content the way git does (a blob id is the SHA-1 of a header and the bytes),
// and SheafCore may not link a crypto or git library. SHA-1 is small enough to carry: this is
// FIPS 180-4's algorithm, fed in pieces so a large file is hashed without holding it in memory.
// It identifies content; it is not used where an attacker's collision would matter more than
// git's own (git itself trusts the same ids).

/// An incremental SHA-1: `update` any number of times, then `finish` once.
public struct SHA1: Sendable {
    private var h0: UInt32 = 0x6745_2301
    private var h1: UInt32 = 0xEFCD_AB89
    private var h2: UInt32 = 0x98BA_DCFE
    private var h3: UInt32 = 0x1032_5476
    private var h4: UInt32 = 0xC3D2_E1F0
    /// Bytes of a block not yet complete (fewer than 64).
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    public init() { pending.reserveCapacity(64) }

    /// Adds `bytes` to the message.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress, bytes.count > 0 else { return }
        var count = bytes.count
        length &+= UInt64(count)
        if !pending.isEmpty {
            let take = min(64 - pending.count, count)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
            base += take
            count -= take
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compress($0.baseAddress!, blocks: 1) }
            pending.removeAll(keepingCapacity: true)
        }
        let blocks = count / 64
        if blocks > 0 { compress(base, blocks: blocks) }
        let rest = count - blocks * 64
        if rest > 0 { pending.append(contentsOf: UnsafeRawBufferPointer(start: base + blocks * 64, count: rest)) }
    }

    /// Adds `bytes` to the message.
    public mutating func update(_ bytes: some Collection<UInt8>) {
        if let done: Void = bytes.withContiguousStorageIfAvailable({ update(UnsafeRawBufferPointer($0)) }) { return done }
        let copy = Array(bytes)
        copy.withUnsafeBytes { update($0) }
    }

    /// The 20-byte digest of everything added. The hasher is spent afterwards.
    public mutating func finish() -> [UInt8] {
        let bits = length &* 8
        var tail: [UInt8] = [0x80]
        let used = (pending.count + 1) % 64
        tail += [UInt8](repeating: 0, count: used <= 56 ? 56 - used : 120 - used)
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        let total = length
        tail.withUnsafeBytes { update($0) }
        length = total
        var out: [UInt8] = []
        out.reserveCapacity(20)
        for word in [h0, h1, h2, h3, h4] {
            out += [UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)]
        }
        return out
    }

    /// Lower-case hex of `digest`.
    public static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(digest.count * 2)
        for b in digest { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Runs the compression function over `blocks` whole 64-byte blocks at `p`. Plain loops over
    /// locals and a raw schedule buffer: fast in release, and not hopeless in a debug build.
    private mutating func compress(_ p: UnsafeRawPointer, blocks: Int) {
        var (a0, b0, c0, d0, e0) = (h0, h1, h2, h3, h4)
        let w = UnsafeMutablePointer<UInt32>.allocate(capacity: 80)
        defer { w.deallocate() }
        var base = p
        for _ in 0..<blocks {
            for i in 0..<16 { w[i] = UInt32(bigEndian: base.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)) }
            for t in 16..<80 {
                let x = w[t &- 3] ^ w[t &- 8] ^ w[t &- 14] ^ w[t &- 16]
                w[t] = (x << 1) | (x >> 31)
            }
            var a = a0, b = b0, c = c0, d = d0, e = e0
            for t in 0..<20 {
                let temp = ((a << 5) | (a >> 27)) &+ ((b & c) | (~b & d)) &+ e &+ 0x5A82_7999 &+ w[t]
                e = d; d = c; c = (b << 30) | (b >> 2); b = a; a = temp
            }
            for t in 20..<40 {
                let temp = ((a << 5) | (a >> 27)) &+ (b ^ c ^ d) &+ e &+ 0x6ED9_EBA1 &+ w[t]
                e = d; d = c; c = (b << 30) | (b >> 2); b = a; a = temp
            }
            for t in 40..<60 {
                let temp = ((a << 5) | (a >> 27)) &+ ((b & c) | (b & d) | (c & d)) &+ e &+ 0x8F1B_BCDC &+ w[t]
                e = d; d = c; c = (b << 30) | (b >> 2); b = a; a = temp
            }
            for t in 60..<80 {
                let temp = ((a << 5) | (a >> 27)) &+ (b ^ c ^ d) &+ e &+ 0xCA62_C1D6 &+ w[t]
                e = d; d = c; c = (b << 30) | (b >> 2); b = a; a = temp
            }
            a0 &+= a; b0 &+= b; c0 &+= c; d0 &+= d; e0 &+= e
            base += 64
        }
        (h0, h1, h2, h3, h4) = (a0, b0, c0, d0, e0)
    }
}
