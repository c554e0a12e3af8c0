// What is wrong with one link: it reaches no file, names a heading or block its note does not
// hold, or (for an editor) names a file by a name several files share. `doctor` and the language
// server ask the same question here, so a buffer's diagnostics are the findings `doctor` reports
// once it is saved.
import SheafCore

/// A link that does not reach what it names.
public struct LinkProblem: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case brokenLink = "broken-link"
        case brokenHeading = "broken-heading"
        case brokenBlock = "broken-block"
        /// The name is several files' (`doctor` does not report it: the link works, the closest wins).
        case ambiguousLink = "ambiguous-link"
    }
    public let kind: Kind
    public let message: String
    /// How to fix it.
    public let fix: String
    /// For an ambiguous link, every file the name could mean (the one it reaches first).
    public let candidates: [String]

    /// The headings and block ids of a note, what a link's fragment is checked against, as the
    /// keys they are compared by (made once per note, not once per link).
    struct Anchors: Sendable {
        let headingKeys: Set<String>
        let blockKeys: Set<String>

        init(headings: [String], blockIDs: [String]) {
            headingKeys = Set(headings.map(LinkProblem.headingKey))
            blockKeys = Set(blockIDs.map { $0.lowercased() })
        }
    }

    /// Checks `link` in the note at `notePath`: returns the file it reaches (nil when none) and
    /// what is wrong with it. `anchors` gives a note's headings and block ids by path.
    static func check(_ link: Link, from notePath: String, targets: LinkTargets, ambiguity: Bool,
                      anchors: (String) -> Anchors?) -> (resolved: String?, problem: LinkProblem?) {
        guard let resolved = targets.resolve(link, from: notePath) else {
            return (nil, LinkProblem(kind: .brokenLink, message: "the link to \"\(link.target)\" reaches no file",
                                     fix: "create the note, or point the link at an existing one", candidates: []))
        }
        if let fragment = link.fragment, !fragment.isEmpty, let target = anchors(resolved) {
            if fragment.hasPrefix("^") {
                let id = String(fragment.dropFirst())
                if !target.blockKeys.contains(id.lowercased()) {
                    return (resolved, LinkProblem(kind: .brokenBlock, message: "\(resolved) has no block ^\(id)",
                                                  fix: "add ` ^\(id)` at the end of the block in \(resolved), or fix the link", candidates: []))
                }
            } else if !target.headingKeys.contains(Self.headingKey(Self.lastHeadingPart(MarkdownScan.percentDecoded(fragment) ?? fragment))) {
                return (resolved, LinkProblem(kind: .brokenHeading, message: "\(resolved) has no heading \"\(Self.lastHeadingPart(fragment))\"",
                                              fix: "fix the link to one of the note's headings, or add the heading", candidates: []))
            }
        }
        let candidates = ambiguity && !link.target.isEmpty ? targets.candidates(link.target, from: notePath) : []
        if candidates.count > 1 {
            let others = candidates.filter { !PathBytes.same($0, resolved) }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            return (resolved, LinkProblem(kind: .ambiguousLink,
                                          message: "\"\(link.target)\" is the name of \(candidates.count) files: it reaches \(resolved), not \(others.joined(separator: ", "))",
                                          fix: "write the vault path of the file you mean", candidates: [resolved] + others))
        }
        return (resolved, nil)
    }

    /// Obsidian names a heading by its text; `#A#B` names B under A. It finds the heading with
    /// case, punctuation and blanks ignored (`#hasTag` opens the heading `` `hasTag()` ``), so
    /// they are compared by their letters and digits alone (`headingKey`).
    static func lastHeadingPart(_ fragment: String) -> String {
        String(fragment.split(separator: "#", omittingEmptySubsequences: true).last ?? Substring(fragment))
    }

    static func headingKey(_ text: String) -> String {
        let lower = text.lowercased()
        let key = String(String.UnicodeScalarView(lower.unicodeScalars.filter {
            $0.properties.isAlphabetic || $0.properties.numericType != nil
        }))
        // A heading of symbols alone (`## ★★★`) is named by its text.
        return key.isEmpty ? String(lower.trimmingBlanks) : key
    }
}
