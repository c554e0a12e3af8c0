// The bar's sync line names the vault's shares and their state, as `sheaf shares` does, once the
// vault has any; a vault without shares shows no such line.
import Foundation
import SheafCore
@testable import SheafKit
import Testing
import TestSupport
@testable import SheafServe

@Suite struct ShareLineTests {
    @Test func theStatusLineShowsEachShareAndItsStateWhenTheVaultHasShares() async throws {
        let served = try ServedVault(["Trips/Lisbon.md": "# Lisbon\n", "Home.md": "home\n"])
        let before = try await served.browse { browser in try await browser.get("/").body }
        #expect(!before.contains(#"id="shares""#))

        let remote = served.temp.path + "/trips.git"
        #expect(GitCLI.run(["init", "-q", "--bare", "-b", "main", remote], in: served.temp.path).status == 0)
        let session = try VaultSession.open(explicit: served.root, environment: [:], workingDirectory: served.root)
        _ = try session.share("Trips", remote: remote)
        let after = try await served.browse { browser in try await browser.get("/n/Home.md").body }
        #expect(after.contains(#"<span id="shares" class="meta">shares: Trips/ in step</span>"#), "\(after)")
    }

    @Test func eachShareStateIsWordedAsTheSyncLineWordsIt() {
        let statuses = [
            ShareStatus(path: "Trips", remote: "r", isNote: false, state: .inStep, ahead: 0, behind: 0, conflicts: 0, lastSync: nil, lastError: nil),
            ShareStatus(path: "Plan.md", remote: "r", isNote: true, state: .conflicts, ahead: 2, behind: 0, conflicts: 1, lastSync: nil, lastError: nil),
            ShareStatus(path: "Notes", remote: "r", isNote: false, state: .notJoined, ahead: 0, behind: 0, conflicts: 0, lastSync: nil, lastError: nil),
        ]
        #expect(ShareLine.line(statuses) == "shares: Trips/ in step · Plan.md conflicts, 2 to push, 1 conflict · Notes/ not joined")
    }
}
