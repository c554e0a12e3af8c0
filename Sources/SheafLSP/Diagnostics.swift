// Diagnostics: the links of an open note that reach nothing, name a heading or block their note
// does not hold, or name a file by a name several files share. Computed on the buffer's text
// (saved or not) by the check `doctor` runs, published on open, change and save, and again for
// every open note after the watcher applied a batch.
import SheafKit

extension LanguageServer {
    func publishDiagnostics(_ document: TextDocument) {
        guard document.path != nil else { return }  // outside the vault: nothing, and no error
        var diagnostics: [[String: Any]] = []
        if let map = linkMap(), let outline = self.outline(document) {
            for (span, problem) in map.problems(in: outline) {
                var diagnostic: [String: Any] = [
                    "range": document.range(ofBytes: span.spanBytes),
                    "severity": Self.severity(problem.kind),
                    "code": problem.kind.rawValue,
                    "source": "sheaf",
                    "message": (problem.message + "; " + problem.fix).shown(1000),
                ]
                if !problem.candidates.isEmpty { diagnostic["data"] = ["candidates": problem.candidates.map(\.inert)] }
                diagnostics.append(diagnostic)
            }
        }
        send(method: "textDocument/publishDiagnostics",
             params: ["uri": document.uri, "version": document.version, "diagnostics": diagnostics])
    }

    /// A link that reaches nothing is an error; one whose heading or block is missing a warning
    /// (the note opens); an ambiguous name works, and is information.
    static func severity(_ kind: LinkProblem.Kind) -> Int {
        switch kind {
        case .brokenLink: return 1
        case .brokenHeading, .brokenBlock: return 2
        case .ambiguousLink: return 3
        }
    }
}
