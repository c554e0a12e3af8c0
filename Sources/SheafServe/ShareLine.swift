// The bar's word on shares, beside the sync's state: each share of the vault and its state as
// `sheaf shares` tells it (Kit's `shareStatuses`), shown only when the vault lists any. A share's
// state needs its repository opened, so the line is kept and made again only when a sync may
// have changed it (the watcher's sync reports) or after a short while; a vault without
// `.sheaf-shares` costs one stat a page.
import Foundation
import SheafCore
import SheafFiles
import SheafKit
import Synchronization

final class ShareLine: Sendable {
    /// How long a line is shown before it is made again without a sync report.
    static let lifetime: TimeInterval = 10
    private let kept = Mutex<(line: String, made: Date)?>(nil)

    /// The line for `vault` now; nil when it lists no share.
    func text(_ vault: Vault) -> String? {
        guard FileManager.default.fileExists(atPath: vault.root + "/" + ShareList.fileName) else { return nil }
        if let kept = kept.withLock({ $0 }), Date().timeIntervalSince(kept.made) < Self.lifetime { return kept.line }
        let session = VaultSession(vault: vault, workingDirectory: vault.root)
        guard let statuses = try? session.shareStatuses(), !statuses.isEmpty else { return nil }
        let line = Self.line(statuses)
        kept.withLock { $0 = (line, Date()) }
        return line
    }

    /// After a sync report: the next page makes the line again.
    func forget() { kept.withLock { $0 = nil } }

    /// `shares: Recipes/ in step · Trip.md offline, 2 to push`, in the words of the sync's state.
    static func line(_ statuses: [ShareStatus]) -> String {
        "shares: " + statuses.map { status in
            var state = status.state.rawValue.replacingOccurrences(of: "-", with: " ")
            if status.ahead > 0 { state += ", \(status.ahead) to push" }
            if status.behind > 0 { state += ", \(status.behind) to pull" }
            if status.conflicts > 0 { state += ", \(status.conflicts) conflict\(status.conflicts == 1 ? "" : "s")" }
            return status.path + (status.isNote ? "" : "/") + " " + state
        }.joined(separator: " · ")
    }
}
