import Foundation
import MediaFixtures
import SheafCore
import SheafFiles
import Testing
import TestSupport
@testable import SheafMedia

@Suite struct ThumbnailerTests {
    let thumbnailer = Thumbnailer()

    /// One folder for the thumbnails of this test process.
    static let outputFolder = TempDir.make("media-out")

    func output(_ name: String) -> String { Self.outputFolder + "/" + name + ".jpg" }

    func size(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }

    @Test(arguments: [
        ("photo.jpg", ImageFormat.jpeg, 640, 480), ("photo.png", .png, 640, 480), ("photo.webp", .webp, 640, 480),
        ("photo.gif", .gif, 640, 480), ("photo.heic", .heif, 640, 480), ("photo.avif", .heif, 640, 480),
        ("photo.tif", .tiff, 640, 480), ("drawing.svg", .svg, 400, 300), ("paper.pdf", .pdf, 595, 842),
        ("grey.png", .png, 640, 480), ("rotated.jpg", .jpeg, 480, 640), ("phone.jpg", .jpeg, 3000, 4000),
    ])
    func everyFormatGivesAThumbnailOnTheLongEdge(_ name: String, _ format: ImageFormat, _ width: Int, _ height: Int) throws {
        let out = output(name)
        let info = try thumbnailer.thumbnail(of: Fixtures.path(name), to: out)
        #expect(info == ImageInfo(format: format, width: width, height: height))
        let thumb = try thumbnailer.probe(out)
        #expect(thumb.format == .jpeg)
        #expect(max(thumb.width, thumb.height) == 256)
        // The aspect ratio survives (orientation applied: a portrait photo gives a portrait thumbnail).
        #expect(abs(Double(thumb.width) / Double(thumb.height) - Double(width) / Double(height)) < 0.02)
        #expect(size(out) > 0 && size(out) < 30_000)
    }

    @Test func greyscaleStaysOneBand() throws {
        let out = output("grey-bands")
        try thumbnailer.thumbnail(of: Fixtures.path("grey.png"), to: out)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
        // A JPEG's SOF0 marker says how many components it has: 1 for greyscale.
        let sof = try #require(bytes.indices.dropLast(10).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        #expect(bytes[sof + 9] == 1)
    }

    @Test func smallImagesAreNotEnlarged() throws {
        let out = output("small")
        try Thumbnailer(longEdge: 1000).thumbnail(of: Fixtures.path("photo.png"), to: out)
        let thumb = try thumbnailer.probe(out)
        #expect(thumb.width == 640 && thumb.height == 480)
    }

    @Test(arguments: [
        ("truncated.jpg", "damaged or truncated"), ("huge.png", "absurd size"), ("empty.jpg", "not an image"),
        ("text.jpg", "not an image"), ("photo.ppm", "not an image"), ("missing.jpg", "cannot read"),
    ])
    func brokenAndHostileFilesGiveAClearError(_ name: String, _ message: String) throws {
        let out = output("broken-" + name)
        let error = try #require(throws: SheafError.self) { try thumbnailer.thumbnail(of: Fixtures.path(name), to: out) }
        #expect(error.what.contains(message), "\(error)")
        #expect(error.path == Fixtures.path(name))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func theHugePNGIsRefusedByItsHeaderAlone() throws {
        let error = try #require(throws: SheafError.self) { try thumbnailer.probe(Fixtures.path("huge.png")) }
        #expect(error.cause?.contains("100000 x 100000") == true)
    }

    @Test func digestFollowsTheContentNotTheName() throws {
        let a = try GitBlobID.ofFile(Fixtures.path("photo.jpg"))
        let copy = output("copy-of-photo")
        try FileManager.default.copyItem(atPath: Fixtures.path("photo.jpg"), toPath: copy)
        #expect(try GitBlobID.ofFile(copy) == a)
        #expect(try GitBlobID.ofFile(Fixtures.path("rotated.jpg")) != a)
        #expect(a.count == 40)
    }

    @Test func formatsByFileName() {
        #expect(MediaType.of("Trips/IMG_0001.JPG") == "image/jpeg")
        #expect(MediaType.isThumbnailed("a.b.heic"))
        #expect(MediaType.isThumbnailed("paper.pdf"))
        #expect(!MediaType.isThumbnailed("notes.txt"))
        #expect(MediaType.of("README") == "application/octet-stream")
    }
}
