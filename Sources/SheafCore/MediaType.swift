// The media type a file name suggests, and which types Sheaf makes thumbnails of. The index
// records this for every attachment without reading it; the thumbnailer checks the contents.
public enum MediaType {
    /// `image/jpeg` for `photo.JPG`; `application/octet-stream` for names it does not know.
    public static func of(_ path: String) -> String {
        switch VaultPath.fileExtension(path).lowercased() {
        case "jpg", "jpeg", "jpe", "jfif": "image/jpeg"
        case "png": "image/png"
        case "webp": "image/webp"
        case "gif": "image/gif"
        case "heic", "heif", "hif": "image/heic"
        case "avif": "image/avif"
        case "tif", "tiff": "image/tiff"
        case "svg", "svgz": "image/svg+xml"
        case "pdf": "application/pdf"
        case "txt": "text/plain"
        case "csv": "text/csv"
        case "json": "application/json"
        case "mp3": "audio/mpeg"
        case "m4a": "audio/mp4"
        case "mp4": "video/mp4"
        case "mov": "video/quicktime"
        case "zip": "application/zip"
        default: "application/octet-stream"
        }
    }

    /// The types Sheaf thumbnails: JPEG, PNG, WebP, GIF, HEIC/AVIF, TIFF, SVG and PDF.
    public static let thumbnailed: Set<String> = [
        "image/jpeg", "image/png", "image/webp", "image/gif", "image/heic", "image/avif", "image/tiff",
        "image/svg+xml", "application/pdf",
    ]

    public static func isThumbnailed(_ path: String) -> Bool { thumbnailed.contains(of(path)) }
}
