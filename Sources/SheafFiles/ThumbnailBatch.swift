// What `sheaf` and its thumbnail helper, `sheaf-thumbnailer`, say to each other. Thumbnails are
// made in that separate executable, the only one linked with libvips, so a command that makes no
// thumbnail never loads the image library and its ~100 shared libraries (process start), and
// untrusted images are decoded outside the process that holds the vault's index and repository.
// The caller writes one request (a file) naming many images; the helper answers with one JSON
// object a line on stdout: `begin`/`end` around each image it decodes (so a helper that dies is
// known to have died on those), `work` once it knows how many thumbnails it will make, and a
// `result` for every image.
import Foundation
import SheafCore

/// A batch of images for the thumbnail helper.
public struct ThumbnailBatch: Codable, Sendable {
    /// The helper's executable name: installed beside `sheaf`, else found on `PATH`.
    public static let helperName = "sheaf-thumbnailer"

    /// One image: its absolute path and the media type its name promises (`image/png`).
    public struct File: Codable, Sendable {
        public let path: String
        public let mediaType: String
        public init(path: String, mediaType: String) { self.path = path; self.mediaType = mediaType }
    }

    /// The thumbnail cache folder (`ThumbnailStore.folder`).
    public var folder: String
    /// The longest edge of a thumbnail, in pixels, and the JPEG quality.
    public var longEdge: Int
    public var quality: Int
    public var files: [File]

    public init(folder: String, longEdge: Int = 256, quality: Int = 80, files: [File]) {
        self.folder = folder; self.longEdge = longEdge; self.quality = quality; self.files = files
    }
}

/// What the helper found and made of one image of a batch.
public struct ThumbnailResult: Codable, Sendable, Equatable {
    /// The image's position in `ThumbnailBatch.files`.
    public var index: Int
    /// The content hash the thumbnail is named by.
    public var hash: String?
    /// The media type of the contents, when it is not the one the name promises.
    public var type: String?
    public var width: Int?
    public var height: Int?
    /// The thumbnail's file name in the cache folder, once it exists.
    public var thumbnail: String?
    /// Whether this run made the thumbnail (false: the content already had one, or it failed).
    public var made: Bool
    /// Why the image has no thumbnail.
    public var error: String?

    public init(index: Int, hash: String? = nil, type: String? = nil, width: Int? = nil, height: Int? = nil,
                thumbnail: String? = nil, made: Bool = false, error: String? = nil) {
        self.index = index; self.hash = hash; self.type = type; self.width = width; self.height = height
        self.thumbnail = thumbnail; self.made = made; self.error = error
    }
}

/// One line of the helper's output; exactly one field is set.
public struct ThumbnailBatchLine: Codable, Sendable {
    /// The helper starts reading or decoding image `begin`...
    public var begin: Int?
    /// ...and is done with it.
    public var end: Int?
    /// How many thumbnails the helper is about to make (after reading every header).
    public var work: Int?
    public var result: ThumbnailResult?

    public init(begin: Int? = nil, end: Int? = nil, work: Int? = nil, result: ThumbnailResult? = nil) {
        self.begin = begin; self.end = end; self.work = work; self.result = result
    }

    /// The line as written: compact JSON and a line break.
    public var encoded: Data {
        var data = (try? JSONEncoder().encode(self)) ?? Data("{}".utf8)
        data.append(0x0a)
        return data
    }
}
