// Test images made at run time, shared by the media and CLI tests: raster formats with the `vips`
// command (libvips-tools, installed by scripts/setup), SVG and PDF written by hand, and the broken
// files written byte by byte.
import Foundation

public enum Fixtures {
    /// A folder of every fixture, made once per test process.
    public static let folder: String = {
        let dir = NSTemporaryDirectory() + "sheaf-media-fixtures-\(getpid())"
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
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
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["vips"] + arguments
        p.standardError = FileHandle.nullDevice
        try! p.run()
        p.waitUntilExit()
        precondition(p.terminationStatus == 0, "vips \(arguments.joined(separator: " ")) failed; run scripts/setup")
    }

    public static func write(_ data: Data, _ path: String) { try! data.write(to: URL(fileURLWithPath: path)) }

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
}
