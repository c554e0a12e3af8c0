// Thumbnails with libvips. The file is opened once as a source; its header is read first (no
// pixels) so a file claiming absurd dimensions is refused before anything is decoded; then the
// thumbnail is made from the same source with shrink-on-load (JPEG, WebP, HEIF, PDF and SVG
// decode straight at a reduced size), EXIF orientation applied, and saved as a small JPEG with
// an atomic write. Truncated files fail (`fail_on`) rather than give a half-grey picture.
import CVips
import Glibc
import SheafCore
import SheafFiles

/// What the header of an image says, with the dimensions as displayed (EXIF orientation applied).
public struct ImageInfo: Sendable, Equatable {
    public let format: ImageFormat
    public let width: Int
    public let height: Int
}

public struct Thumbnailer: Sendable {
    /// Refused before decoding: more pixels than this...
    public static let maxPixels = 100_000_000
    /// ...or a side longer than this.
    public static let maxSide = 30_000

    /// An image over this many pixels is decoded alone in the process: a progressive JPEG keeps
    /// all its coefficients in memory (about 6 bytes a pixel, 107 MB for 18 megapixels), and any
    /// image decoded beside it would add its own buffers to that peak. Smaller ones run in parallel.
    public static let largeImagePixels = 12_000_000
    nonisolated(unsafe) static let decoding: UnsafeMutablePointer<pthread_rwlock_t> = {
        // Writer-preferring: a large image waiting for its turn stops new small ones from starting,
        // else it would wait until every small image was done and end the run on one core.
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
        pthread_rwlock_init(lock, &attributes)
        return lock
    }()

    /// The longest edge of a thumbnail, in pixels.
    public let longEdge: Int
    /// JPEG quality of thumbnails.
    public let quality: Int

    public init(longEdge: Int = 256, quality: Int = 80) {
        self.longEdge = longEdge
        self.quality = quality
    }

    /// Reads the header of the image at `path` (absolute), refusing what Sheaf will not decode.
    public func probe(_ path: String) throws(SheafError) -> ImageInfo {
        let source = try Self.open(path)
        return try Self.header(source, path)
    }

    /// Makes the thumbnail of the image at `path` and writes it atomically to `output`.
    @discardableResult
    public func thumbnail(of path: String, to output: String) throws(SheafError) -> ImageInfo {
        let source = try Self.open(path)
        let info = try Self.header(source, path)
        if let command = ThumbnailIsolation.command, ThumbnailIsolation.isIsolated(info) {
            // Decoded in a helper process with a memory cap (ThumbnailHelper.swift), alone when large.
            let alone = info.width * info.height > Self.largeImagePixels
            if alone { pthread_rwlock_wrlock(Self.decoding) } else { pthread_rwlock_rdlock(Self.decoding) }
            defer { pthread_rwlock_unlock(Self.decoding) }
            try ThumbnailIsolation.run(command, source: path, output: output, longEdge: longEdge, quality: quality)
            return info
        }
        return try make(source, info, path, output)
    }

    /// Makes a thumbnail in this process, whatever the image (the thumbnail helper's own work).
    @discardableResult
    func thumbnailHere(of path: String, to output: String) throws(SheafError) -> ImageInfo {
        let source = try Self.open(path)
        return try make(source, try Self.header(source, path), path, output)
    }

    private func make(_ source: VipsObject<VipsSource>, _ info: ImageInfo, _ path: String, _ output: String) throws(SheafError) -> ImageInfo {
        let alone = info.width * info.height > Self.largeImagePixels
        if alone {
            pthread_rwlock_wrlock(Self.decoding)
            vips_concurrency_set(Int32(sysconf(Int32(_SC_NPROCESSORS_ONLN))))  // the other cores are free
        } else {
            pthread_rwlock_rdlock(Self.decoding)
        }
        defer {
            if alone { vips_concurrency_set(1) }
            pthread_rwlock_unlock(Self.decoding)
        }
        var raw: UnsafeMutablePointer<VipsImage>?
        guard sheaf_vips_thumbnail(source.pointer, &raw, Int32(longEdge)) == 0, let raw else {
            throw Self.failure("cannot make a thumbnail: the image is damaged or truncated", path)
        }
        var image = VipsObject(raw)
        let space = vips_image_get_interpretation(image.pointer)
        if space != VIPS_INTERPRETATION_sRGB && space != VIPS_INTERPRETATION_B_W {
            let target = space == VIPS_INTERPRETATION_GREY16 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB
            image = try Self.step(image, path) { sheaf_vips_colourspace($0, $1, target) }
        }
        if vips_image_hasalpha(image.pointer) != 0 {
            image = try Self.step(image, path) { sheaf_vips_flatten_white($0, $1) }
        }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        // The pixels are decoded here, while the JPEG is written: a truncated file fails now.
        guard sheaf_vips_jpeg(image.pointer, &buffer, &length, Int32(quality)) == 0, let buffer else {
            throw Self.failure("cannot make a thumbnail: the image is damaged or truncated", path)
        }
        defer { g_free(buffer) }
        try AtomicFile.write(Array(UnsafeRawBufferPointer(start: buffer, count: length)), to: output)
        return info
    }

    static func open(_ path: String) throws(SheafError) -> VipsObject<VipsSource> {
        try Vips.start()
        guard let source = vips_source_new_from_file(path) else {
            throw failure("cannot read", path)
        }
        return VipsObject(source)
    }

    static func header(_ source: VipsObject<VipsSource>, _ path: String) throws(SheafError) -> ImageInfo {
        guard let loader = vips_foreign_find_load_source(source.pointer),
              let format = ImageFormat.ofLoader(String(cString: loader)) else {
            _ = Vips.takeError()
            throw SheafError("not an image Sheaf can read", path: path,
                             cause: "the contents are not JPEG, PNG, WebP, GIF, HEIC/AVIF, TIFF, SVG or PDF")
        }
        guard let raw = sheaf_vips_header(source.pointer) else {
            throw failure("cannot read the image header", path)
        }
        let header = VipsObject(raw)
        let width = Int(vips_image_get_width(header.pointer)), height = Int(vips_image_get_height(header.pointer))
        guard width > 0, height > 0, width <= maxSide, height <= maxSide, width * height <= maxPixels else {
            throw SheafError("refused an image of absurd size", path: path,
                             cause: "its header claims \(width) x \(height) pixels; the limit is \(maxSide) px a side and \(maxPixels / 1_000_000) megapixels")
        }
        let swap = vips_image_get_orientation_swap(header.pointer) != 0
        return ImageInfo(format: format, width: swap ? height : width, height: swap ? width : height)
    }

    /// One libvips operation from an image to a new one.
    static func step(_ image: VipsObject<VipsImage>, _ path: String,
                     _ operation: (UnsafeMutablePointer<VipsImage>, UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32)
        throws(SheafError) -> VipsObject<VipsImage> {
        var out: UnsafeMutablePointer<VipsImage>?
        guard operation(image.pointer, &out) == 0, let out else {
            throw failure("cannot make a thumbnail: cannot convert its colours", path)
        }
        return VipsObject(out)
    }

    static func failure(_ what: String, _ path: String) -> SheafError {
        SheafError(what, path: path, cause: Vips.takeError())
    }
}
