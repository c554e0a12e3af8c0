import Foundation

/// Conflict files are named `<stem>.conflict-<yyyyMMdd-HHmmss>-<device><ext>` (docs/sync.md,
/// "Conflict files").
public enum ConflictName {
    public static func isConflict(_ path: String) -> Bool {
        let stem = VaultPath.stem(path)
        guard let range = stem.range(of: ".conflict-", options: .backwards) else { return false }
        let rest = stem[range.upperBound...]
        let digits = rest.prefix(15)
        return digits.count == 15 && digits.dropFirst(8).first == "-"
            && digits.enumerated().allSatisfy { i, c in i == 8 ? c == "-" : c.isASCII && c.isNumber }
    }
}
