// The lower modules' result types that are already the right public shape, named by Kit, so
// that Kit's callers (SheafCLI, and later `watch` and a web view) import SheafKit and SheafCore
// only. A type gets its own Kit definition instead when its shape is not one a caller should
// see (git's status kinds: `VaultChange`; the thumbnailer's records: `Attachment`).
import SheafGit
import SheafIndex
import SheafSync

/// A note as `ls` lists it: path, title, tags, dates and a snippet (from the index's catalog).
public typealias NoteSummary = SheafIndex.NoteSummary
/// One search result with its snippet cut in runs of matched and unmatched text.
public typealias SearchHit = SheafIndex.SearchHit
/// What a pull did, path by path (`PathOutcome`), and which remote entries it refused.
public typealias PullReport = SheafSync.PullReport
/// What a pull did to one path (updated, merged, conflict, resurrected, renamed, added, deleted).
public typealias PathOutcome = SheafSync.PathOutcome
/// A remote entry a pull did not write, and why.
public typealias RefusedPath = SheafSync.RefusedPath
/// A commit Sheaf made: its id and summary line.
public typealias CommitInfo = SheafGit.CommitInfo
/// A commit's id, time, author and summary, as `log` lists it.
public typealias CommitDetails = SheafGit.CommitDetails

/// Text for people with the user-info (a token or a password) of every URL in it removed.
public func redactingCredentials(_ text: String) -> String { RemoteURL.redacting(text) }
/// What a scan of the vault found: files scanned, added, changed, removed, renamed, warnings.
public typealias ScanReport = SheafIndex.ScanReport
/// An attachment as the index records it: path, type, size, dimensions, hash, thumbnail state.
public typealias AttachmentRecord = SheafIndex.AttachmentRecord
