/// A link written in a note: in its body, or as a front-matter property's value.
public struct Link: Equatable, Hashable, Sendable {
    public enum Kind: String, Sendable, Codable {
        /// `[[Target]]`, `[[Target|label]]`, `[[Target#Heading]]`, `[[Target\|label]]` (in tables)
        case wiki
        /// `![[file.png]]`
        case wikiEmbed
        /// `[text](relative/path.md)`
        case markdown
        /// `![alt](photo.jpg)`
        case markdownEmbed
        /// A front-matter value that is a wiki-link: `cover: "[[photo.jpg]]"`, or an item of a list.
        case property
    }

    public let kind: Kind
    /// The target as written, percent-decoded for markdown links, without `#heading` or `|label`.
    /// Empty for a link to a heading or block of its own note (`[[#Heading]]`).
    public let target: String
    /// The `#heading` (or `#^block`) part, without the `#`.
    public let fragment: String?
    /// UTF-8 byte range of the target text, for rewriting it in place: within the body, or for
    /// `.property` links within the front-matter block's text (`FrontMatterBlock.rendered`).
    public let targetRange: Range<Int>
    /// The `|label` of a wiki-link (without the bar), nil when it has none.
    public let label: String?
    /// Whether the link sits in a table cell, where a wiki-link's bar is written `\|`.
    public let inTable: Bool
    /// Whether the link sits inside an Obsidian comment (`%% ... %%`): Obsidian shows it nowhere,
    /// so `doctor` does not check it; `mv` still keeps it pointing at its note.
    public internal(set) var inComment = false

    public init(kind: Kind, target: String, fragment: String? = nil, targetRange: Range<Int>,
                label: String? = nil, inTable: Bool = false) {
        self.kind = kind
        self.target = target
        self.fragment = fragment
        self.targetRange = targetRange
        self.label = label
        self.inTable = inTable
    }

    public var isEmbed: Bool { kind == .wikiEmbed || kind == .markdownEmbed }
    /// Written with `[[ ]]`: in the body or in a property.
    public var isWiki: Bool { kind == .wiki || kind == .wikiEmbed || kind == .property }
    /// A front-matter link: its `targetRange` counts in the front-matter block, not the body.
    public var inFrontMatter: Bool { kind == .property }
}
