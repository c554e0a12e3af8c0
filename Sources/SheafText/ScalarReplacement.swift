// Text escaped for a reader that reads code points or bytes (a shell, FTS5, HTML, markdown): each
// scalar to escape is replaced on its own. Never by Character: a combining mark after `"` makes
// `"́` one Character that is not `"`, and an escape that compared Characters (Foundation's
// `replacingOccurrences`, swift-mustache's HTML escaping) left that quote as it was, ending the
// quoted text early for the reader.
extension String {
    /// The string with each scalar `replacements` names replaced by its replacement.
    public func replacingScalars(_ replacements: [Unicode.Scalar: String]) -> String {
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if let replacement = replacements[scalar] { out.append(contentsOf: replacement.unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }
}
