// Search as you type asks for each letter: the list under the box holds the ten best hits (each
// snippet is cut from its file), the search page (Enter) up to fifty.
import Foundation
import Testing
@testable import SheafServe

@Suite struct SearchAsYouTypeTests {
    @Test func searchAsYouTypeListsTheTenBestHitsAndTheSearchPageAllOfThem() async throws {
        var files: [String: String] = [:]
        for i in 1...12 { files["Moth \(i).md"] = "A moth, number \(i).\n" }
        let served = try ServedVault(files)
        try await served.browse { browser in
            let typed = try await browser.get("/search?fragment=1&q=moth").body
            let page = try await browser.get("/search?q=moth").body
            #expect(typed.components(separatedBy: "<li>").count - 1 == VaultRoutes.asYouTypeLimit)
            #expect(page.components(separatedBy: "<li>").count - 1 == 12)
        }
    }
}
