// Browsing a vault whose folders are NFC/NFD twins (`café/` composed and decomposed: equal as
// Swift Strings, two folders on Linux): each is listed, counted and shown on its own.
import Foundation
import Testing
import TestSupport
@testable import SheafServe
#if canImport(Glibc)
import Glibc
#endif

@Suite struct ServeTwinTests {
    /// Regression: the folder listing counted notes in a String-keyed table, so two twin folders
    /// were one entry (linking to one of them, with both counts), and a folder's page listed the
    /// notes of its twin too.
    @Test func twinFoldersAreListedAndShownApart() async throws {
        let served = try ServedVault([:])
        let nfc = "caf\u{E9}", nfd = "cafe\u{301}"
        for (folder, notes) in [(nfc, ["one.md"]), (nfd, ["two.md", "three.md"])] {
            #expect(mkdir(served.root + "/" + folder, 0o755) == 0 || errno == EEXIST)
            for note in notes { ByteName.write("# \(note)\n", name: Array((folder + "/" + note).utf8), in: served.root) }
        }
        try await served.browse { browser in
            let root = try await browser.get("/")
            let composed = #"<a href="\#(WebPaths.url("/f", nfc))">\#(nfc)/</a> <span class="meta">1</span>"#
            let decomposed = #"<a href="\#(WebPaths.url("/f", nfd))">\#(nfd)/</a> <span class="meta">2</span>"#
            #expect(root.body.utf8.firstRange(of: composed.utf8) != nil, "\(root.body)")
            #expect(root.body.utf8.firstRange(of: decomposed.utf8) != nil, "\(root.body)")
            let page = try await browser.get(WebPaths.url("/f", nfc))
            #expect(page.body.contains(">one.md<") && !page.body.contains("two.md") && !page.body.contains("three.md"), "\(page.body)")
        }
    }
}
