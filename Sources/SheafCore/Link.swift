/// A link written in a note's body.
public struct Link: Equatable, Hashable, Sendable {
    public enum Kind: String, Sendable, Codable {
        /// `[[Target]]`, `[[Target|label]]`, `[[Target#Heading]]`
        case wiki
        /// `![[file.png]]`
        case wikiEmbed
        /// `[text](relative/path.md)`
        case markdown
        /// `![alt](photo.jpg)`
        case markdownEmbed
    }

    public let kind: Kind
    /// The target as written, percent-decoded for markdown links, without `#heading` or `|label`.
    public let target: String
    /// The `#heading` (or `#^block`) part, without the `#`.
    public let fragment: String?
    /// UTF-8 byte range of the target text within the body, for rewriting it in place.
    public let targetRange: Range<Int>

    public var isEmbed: Bool { kind == .wikiEmbed || kind == .markdownEmbed }
    public var isWiki: Bool { kind == .wiki || kind == .wikiEmbed }
}
