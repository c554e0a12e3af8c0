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
}
