// Whether a text holds a code point of some script, read from its UTF-8 bytes: most notes are
// ASCII or Latin with a few accents, and walking `unicodeScalars` decoded every one of them (the
// Greek and CJK checks were 3.4 % of a cold index's CPU at 10k). Only a lead byte at or above
// the script's first lead byte is decoded.

enum ScalarScan {
    /// Whether some scalar of `text` whose UTF-8 lead byte is at least `lead` passes `test`.
    static func contains(_ text: String, leadAtLeast lead: UInt8, where test: (UInt32) -> Bool) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var i = 0
            let n = bytes.count
            while i < n {
                let b = bytes[i]
                guard b >= lead, b >= 0xC0 else { i += 1; continue }
                // Swift strings hold valid UTF-8: a lead byte is followed by its continuation bytes.
                let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
                var value = UInt32(b) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                for k in 1..<length { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
                if test(value) { return true }
                i += length
            }
            return false
        }
    }
}
