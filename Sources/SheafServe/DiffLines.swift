// A version's diff to today as a page shows it: every removed and added line, with three kept
// lines around each change and a count of the kept lines between (a long note with one changed
// line stays short). Each line is text for Mustache to escape, never HTML.
import SheafCore

enum DiffLines {
    /// Kept lines shown on each side of a change.
    static let context = 3

    /// The template's rows: `kind` (kept, removed, added, skipped), `sign` and `text`.
    static func shown(_ lines: [TextDiff.Line]) -> [[String: Any]] {
        let changed = lines.indices.filter { lines[$0].kind != .kept }
        guard !changed.isEmpty else { return [] }
        var near = [Bool](repeating: false, count: lines.count)
        for i in changed { for j in max(0, i - context)...min(lines.count - 1, i + context) { near[j] = true } }
        var rows: [[String: Any]] = []
        var skipped = 0
        func flush() {
            if skipped > 0 { rows.append(["kind": "skipped", "sign": "", "text": skipped == 1 ? "1 line as it was" : "\(skipped) lines as they were"]) }
            skipped = 0
        }
        for (i, line) in lines.enumerated() {
            guard near[i] else { skipped += 1; continue }
            flush()
            let (kind, sign) = switch line.kind {
            case .kept: ("kept", " ")
            case .removed: ("removed", "-")
            case .added: ("added", "+")
            }
            rows.append(["kind": kind, "sign": sign, "text": String(decoding: line.bytes, as: UTF8.self)])
        }
        flush()
        return rows
    }
}
