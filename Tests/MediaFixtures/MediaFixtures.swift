// Test images made at run time, shared by the media and CLI tests: raster formats with the `vips`
// command (libvips-tools, installed by scripts/setup), SVG and PDF written by hand, and the broken
// files written byte by byte.
import Foundation
import TestSupport

public enum Fixtures {
    /// A folder of every fixture, made once per test process.
    public static let folder: String = {
        let dir = TempDir.make("media-fixtures")
        make(in: dir)
        return dir
    }()

    public static func path(_ name: String) -> String { folder + "/" + name }

    static func make(in dir: String) {
        // A 640 x 480 colour gradient, the source of every raster format.
        vips("xyz", "\(dir)/xy.v", "640", "480")
        vips("linear", "\(dir)/xy.v", "\(dir)/rg.v", "0.3", "10", "--uchar")
        vips("bandjoin_const", "\(dir)/rg.v", "\(dir)/rgb3.v", "128")
        vips("copy", "\(dir)/rgb3.v", "\(dir)/rgb.v", "--interpretation", "srgb")
        for ext in ["jpg", "png", "webp", "gif", "tif"] { vips("copy", "\(dir)/rgb.v", "\(dir)/photo.\(ext)") }
        vips("heifsave", "\(dir)/rgb.v", "\(dir)/photo.heic")
        vips("heifsave", "\(dir)/rgb.v", "\(dir)/photo.avif", "--compression", "av1")
        vips("colourspace", "\(dir)/rgb.v", "\(dir)/grey.png", "b-w")
        vips("copy", "\(dir)/rgb.v", "\(dir)/photo.ppm")
        // Noise does not compress, so half the file is half the picture.
        vips("gaussnoise", "\(dir)/noise.v", "1024", "768")
        vips("copy", "\(dir)/noise.v", "\(dir)/noise.jpg")
        let noise = try! Data(contentsOf: URL(fileURLWithPath: "\(dir)/noise.jpg"))
        write(noise.prefix(noise.count / 2), "\(dir)/truncated.jpg")
        // Orientation 6: stored 640 x 480, shown 480 x 640.
        let jpeg = try! Data(contentsOf: URL(fileURLWithPath: "\(dir)/photo.jpg"))
        write(jpeg.prefix(2) + exifOrientation(6) + jpeg.dropFirst(2), "\(dir)/rotated.jpg")
        // A phone photo: 4000 x 3000 (12 megapixels), smooth like a real picture, orientation 6.
        vips("xyz", "\(dir)/big-xy.v", "4000", "3000")
        vips("linear", "\(dir)/big-xy.v", "\(dir)/big-rg.v", "0.05", "20", "--uchar")
        vips("bandjoin_const", "\(dir)/big-rg.v", "\(dir)/big-rgb3.v", "90")
        vips("copy", "\(dir)/big-rgb3.v", "\(dir)/big-rgb.v", "--interpretation", "srgb")
        vips("copy", "\(dir)/big-rgb.v", "\(dir)/big.jpg")
        let big = try! Data(contentsOf: URL(fileURLWithPath: "\(dir)/big.jpg"))
        write(big.prefix(2) + exifOrientation(6) + big.dropFirst(2), "\(dir)/phone.jpg")
        for v in ["big-xy", "big-rg", "big-rgb3", "big-rgb"] { try? FileManager.default.removeItem(atPath: "\(dir)/\(v).v") }
        write(Data(svg.utf8), "\(dir)/drawing.svg")
        write(pdf(), "\(dir)/paper.pdf")
        write(hugePNG(), "\(dir)/huge.png")
        write(Data(), "\(dir)/empty.jpg")
        write(Data("just some text, not a picture\n".utf8), "\(dir)/text.jpg")
    }

    public static func vips(_ arguments: String...) {
        let r = runProcess("/usr/bin/env", ["vips"] + arguments, in: "/")
        precondition(r.status == 0, "vips \(arguments.joined(separator: " ")) failed; run scripts/setup")
    }

    public static func write(_ data: Data, _ path: String) { TestFile.write(data, to: path) }

    static let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="400" height="300">
          <rect width="400" height="300" fill="#f0e0c0"/><circle cx="200" cy="150" r="100" fill="#3060a0"/>
        </svg>
        """

    /// An APP1 segment holding EXIF with only an orientation tag (big-endian TIFF).
    public static func exifOrientation(_ value: UInt8) -> Data {
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8,  // header, first IFD at 8
                             0, 1,                                  // one entry
                             0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, value, 0, 0,  // orientation, SHORT, 1
                             0, 0, 0, 0]                            // no next IFD
        let body = Array("Exif".utf8) + [0, 0] + tiff
        let length = body.count + 2
        return Data([0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body)
    }

    /// A PNG whose header claims 100000 x 100000 pixels, followed by a token of data.
    static func hugePNG() -> Data {
        func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + payload
            let n = UInt32(payload.count), c = crc32(typed)
            return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + typed
                + [UInt8(c >> 24), UInt8(c >> 16 & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c & 0xFF)]
        }
        let side: [UInt8] = [0, 0x01, 0x86, 0xA0]  // 100000
        let ihdr = side + side + [8, 2, 0, 0, 0]     // 8-bit RGB
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        return Data(signature + chunk("IHDR", ihdr) + chunk("IDAT", [0x78, 0x9C, 0x03, 0, 0, 0, 0, 1]) + chunk("IEND", []))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// A one-page PDF (595 x 842 pt, A4) with a filled rectangle, its cross-reference table exact.
    static func pdf() -> Data {
        let stream = "0.2 0.4 0.8 rg 100 100 395 642 re f"
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>",
            "<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream",
        ]
        var out = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (i, body) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(i + 1) 0 obj\n\(body)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for o in offsets { out += String(repeating: "0", count: 10 - String(o).count) + "\(o) 00000 n \n" }
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(out.utf8)
    }

    /// A zlib stream of `count` zero bytes, written by hand (fixed Huffman codes: one literal 0,
    /// then copies of 258 bytes at distance 1, 13 bits each): about 6 KB a megabyte.
    public static func zlibZeros(_ count: Int) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var bits: UInt64 = 0, filled = 0
        func put(_ value: UInt64, _ width: Int) {  // codes already bit-reversed: LSB first
            bits |= value << UInt64(filled)
            filled += width
            while filled >= 8 { out.append(UInt8(truncatingIfNeeded: bits)); bits >>= 8; filled -= 8 }
        }
        put(0b011, 3)  // BFINAL 1, BTYPE 01 (fixed codes)
        let literalZero: UInt64 = 0x0C, copy258: UInt64 = 0xA3  // 8-bit codes, reversed; distance code 0: 5 zero bits
        if count > 0 {
            put(literalZero, 8)
            let (copies, rest) = (count - 1).quotientAndRemainder(dividingBy: 258)
            out.reserveCapacity(copies * 13 / 8 + rest + 16)
            for _ in 0..<copies { put(copy258, 13) }
            for _ in 0..<rest { put(literalZero, 8) }
        }
        put(0, 7)  // end of block
        if filled > 0 { put(0, 8 - filled) }
        let adler = UInt32(count % 65521) << 16 | 1
        return out + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
    }

    /// A black, Adam7-interlaced, 16-bit RGB PNG (libvips decodes interlaced PNGs whole).
    public static func interlacedPNG16(width: Int, height: Int) -> Data {
        // Rows of each of the 7 passes: a filter byte and 6 bytes a pixel, every byte 0.
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var raw = 0
        for (x0, y0, dx, dy) in passes {
            let columns = (width - x0 + dx - 1) / dx, rows = (height - y0 + dy - 1) / dy
            if columns > 0 && rows > 0 { raw += rows * (1 + columns * 6) }
        }
        func be(_ n: Int) -> [UInt8] { [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] }
        func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + payload
            return be(payload.count) + typed + be(Int(tableCRC32(typed)))
        }
        let ihdr = be(width) + be(height) + [16, 2, 0, 0, 1]  // 16-bit RGB, Adam7
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        return Data(signature + chunk("IHDR", ihdr) + chunk("IDAT", zlibZeros(raw)) + chunk("IEND", []))
    }

    /// A one-page A4 PDF whose page draws one black `side` x `side` grey image, Flate-compressed.
    public static func pdfWithImage(side: Int) -> Data {
        let pixels = zlibZeros(side * side)
        let content = "q 595 0 0 842 0 0 cm /Im1 Do Q"
        let head = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
        ]
        var out = Array("%PDF-1.4\n".utf8)
        var offsets: [Int] = []
        for (i, body) in head.enumerated() {
            offsets.append(out.count)
            out += Array("\(i + 1) 0 obj\n\(body)\nendobj\n".utf8)
        }
        offsets.append(out.count)
        out += Array("5 0 obj\n<< /Type /XObject /Subtype /Image /Width \(side) /Height \(side) /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length \(pixels.count) >>\nstream\n".utf8)
        out += pixels + Array("\nendstream\nendobj\n".utf8)
        let xref = out.count
        var tail = "xref\n0 6\n0000000000 65535 f \n"
        for o in offsets { tail += String(repeating: "0", count: 10 - String(o).count) + "\(o) 00000 n \n" }
        tail += "trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(out + Array(tail.utf8))
    }

    static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        return c
    }

    static func tableCRC32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes { crc = crcTable[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }
}
