// The image formats Sheaf makes thumbnails of, and the libvips loader class of each. Every other
// loader (ImageMagick, FITS, Matlab, OpenSlide, raw, CSV...) stays blocked: a vault synced from
// elsewhere is untrusted input, and these are the formats people attach to notes.

/// A format Sheaf can thumbnail.
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    case jpeg, png, webp, gif, heif, tiff, svg, pdf

    /// The libvips class every loader of this format (file, buffer, source) derives from.
    var loaderClass: String {
        switch self {
        case .jpeg: "VipsForeignLoadJpeg"
        case .png: "VipsForeignLoadPng"
        case .webp: "VipsForeignLoadWebp"
        case .gif: "VipsForeignLoadNsgif"
        case .heif: "VipsForeignLoadHeif"
        case .tiff: "VipsForeignLoadTiff"
        case .svg: "VipsForeignLoadSvg"
        case .pdf: "VipsForeignLoadPdf"
        }
    }

    /// The format of a loader that libvips picked, nil when it is not on the list.
    static func ofLoader(_ className: String) -> ImageFormat? {
        allCases.first { format in
            let base = format.loaderClass
            return className == base || ["File", "Buffer", "Source"].contains { className == base + $0 }
        }
    }

    public var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .gif: "image/gif"
        case .heif: "image/heic"
        case .tiff: "image/tiff"
        case .svg: "image/svg+xml"
        case .pdf: "application/pdf"
        }
    }

    /// Whether a file of media type `type` (from its name) is expected to hold this format.
    public func matches(mediaType type: String) -> Bool {
        type == mediaType || (self == .heif && type == "image/avif")
    }
}
