// What a scan (or an applied change set) reports: counts, warnings, how long it took, and the
// paths whose catalog rows it changed (`changes`).
import SheafCore

/// What a scan did.
public struct ScanReport: Sendable {
    public var scanned = 0
    public var added = 0
    public var changed = 0
    public var removed = 0
    public var renamed = 0
    public var warnings: [(path: String, message: String)] = []
    /// The walk's own warnings (unreadable folders, links out of the vault), also in `warnings`.
    public var walkWarnings: [VaultWarning] = []
    public var seconds = 0.0
    public var rebuilt: RebuildReason?
    /// The FTS table was rebuilt from the files to drop its dead rows.
    public var compacted = false
    /// The paths whose catalog rows were added, changed, removed or renamed (notes and other
    /// files alike). A note touched but holding the same bytes is not in it; an attachment whose
    /// identity changed is (attachments are not read by a scan).
    public var changes = VaultChangeSet()
    /// Every file the scan's walk found (notes and others, in the walk's order); nil for an
    /// applied change set, which walks nothing.
    public var files: [VaultFile]?

    /// This report followed by `later`, of the same index (a pull's early pass, then the update
    /// of its whole change set): the changes are composed (a note added, then changed, is added;
    /// added, then removed, is nothing) and counted from the result, `scanned` is the larger
    /// (the later one looks at the same paths again), each warning is kept once. The counts are
    /// of notes, as a scan's are.
    public func followed(by later: ScanReport) -> ScanReport {
        var result = later
        result.scanned = max(scanned, later.scanned)
        result.changes = changes.followed(by: later.changes)
        // The counts are of notes; the changes name attachments too.
        result.added = result.changes.added.count { VaultPath.isNote($0.path) }
        result.changed = result.changes.changed.count { VaultPath.isNote($0.path) }
        result.removed = result.changes.removed.count { VaultPath.isNote($0.path) }
        result.renamed = result.changes.renamed.count { VaultPath.isNote($0.to.path) }
        var seen = Set<String>()
        result.warnings = (warnings + later.warnings).filter { seen.insert($0.path + "\u{0}" + $0.message).inserted }
        result.walkWarnings = walkWarnings + later.walkWarnings.filter { !walkWarnings.contains($0) }
        result.seconds += seconds
        result.rebuilt = rebuilt ?? later.rebuilt
        result.compacted = compacted || later.compacted
        result.files = nil
        return result
    }
}
