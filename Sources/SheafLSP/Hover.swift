// Hover on a link: the note it reaches, its title and first lines; for another file (an image),
// its name and size, an image's pixels and its thumbnail (shown, and its path) once made.
import Foundation
import SheafCore
import SheafKit

extension LanguageServer {
    func hover(_ params: [String: Any]) -> Any {
        guard let (document, path) = document(params), let position = Position(params["position"]),
              let map = linkMap() else { return NSNull() }
        guard let outline = self.outline(document),
              let span = Self.link(at: document.byteOffset(of: position), in: outline, bytes: document.bytes),
              let target = map.resolve(span.target, from: path), let preview = map.preview(of: target) else { return NSNull() }
        var text = "**\(Self.markdownEscaped(preview.title.inert))**  \n`\(preview.path.inert.replacingScalars(["`": "'"]))`"
        if preview.lines.isEmpty {
            text += "  \n\(preview.size) bytes"
            if let pixels = preview.pixels { text += ", \(pixels.width) × \(pixels.height) px" }
            if let thumbnail = preview.thumbnail {
                text += "\n\n![thumbnail](\(DocumentURI.uri(thumbnail)))  \nthumbnail: `\(thumbnail.inert)`"
            }
        } else {
            text += "\n\n" + preview.lines.map(\.inert).joined(separator: "\n")
        }
        return ["contents": ["kind": "markdown", "value": text], "range": document.range(ofBytes: span.spanBytes)]
    }

    /// A title shown as Markdown, its syntax characters taken literally.
    /// Scalar by scalar: a `[` or `*` with a combining mark after it is a Character of its own
    /// that the list does not hold, and markdown reads code points.
    static func markdownEscaped(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if "\\`*_{}[]()#+-.!<>|~".unicodeScalars.contains(scalar) { out.append("\\") }
            out.append(scalar)
        }
        return String(out)
    }
}
