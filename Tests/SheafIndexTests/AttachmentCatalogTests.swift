import Foundation
import GRDB
import SheafCore
import SheafFiles
import Testing
@testable import SheafIndex

@Suite struct AttachmentCatalogTests {
    // The temporary vaults of the scanner's tests.
    func makeVault() -> (Vault, String) { ScannerTests().makeVault() }
    func write(_ text: String, _ path: String) { ScannerTests().write(text, path) }

    func scan(_ vault: Vault) throws -> NoteIndex {
        let index = try NoteIndex(vault: vault)
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        return index
    }

    func ready(_ record: AttachmentRecord) -> ThumbnailOutcome {
        ThumbnailOutcome(record: record, hash: "0123456789abcdef", type: nil, width: 64, height: 48,
                         thumbnail: "0123456789abcdef-256.jpg", error: nil)
    }

    @Test func theScanRecordsAttachmentsAndAChangeMakesThemPendingAgain() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        write("# Trip\n![[pic.png]]\n", root + "/trip.md")
        write("not really a png", root + "/pic.png")
        write("a,b\n", root + "/data.csv")
        var index = try scan(vault)
        var records = try index.attachments()
        #expect(records.map(\.path) == ["data.csv", "pic.png"])
        #expect(records.map(\.state) == [.none, .pending])
        #expect(records.map(\.type) == ["text/csv", "image/png"])
        #expect(try index.attachmentsNeedingThumbnails { _ in true }.map(\.path) == ["pic.png"])

        try index.record([ready(records[1])])
        #expect(try index.attachments(at: ["pic.png"]).first?.state == .ready)
        #expect(try index.attachmentsNeedingThumbnails { _ in true }.isEmpty)
        // A thumbnail file that went away is made again.
        #expect(try index.attachmentsNeedingThumbnails { _ in false }.map(\.path) == ["pic.png"])
        #expect(try index.thumbnailsInUse() == ["0123456789abcdef-256.jpg"])

        // Unchanged files keep what was found; a changed one starts again; a removed one goes.
        index = try scan(vault)
        #expect(try index.attachments(at: ["pic.png"]).first?.width == 64)
        let stale = try #require(try index.attachments(at: ["pic.png"]).first)
        write("a different picture, longer", root + "/pic.png")
        try FileManager.default.removeItem(atPath: root + "/data.csv")
        index = try scan(vault)
        records = try index.attachments()
        #expect(records.map(\.path) == ["pic.png"])
        #expect(records[0].state == .pending && records[0].width == nil && records[0].thumbnail == nil)
        // What was found about the old bytes is not written over the new file's row.
        try index.record([ready(stale)])
        #expect(try index.attachments(at: ["pic.png"]).first?.state == .pending)
    }

    @Test func linksToAttachmentsAreReadAsWritten() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        write("# Trip\n![[pic.png]] and ![map](maps/Map%20one.pdf) and [[Other]]\n", root + "/trip.md")
        write("png", root + "/pic.png")
        write("pdf", root + "/maps/Map one.pdf")
        let index = try scan(vault)
        let links = try index.linksToAttachments()
        let byTarget = Dictionary(uniqueKeysWithValues: links.map { ($0.target, $0.kind) })
        #expect(byTarget == ["pic.png": .wikiEmbed, "maps/Map one.pdf": .markdownEmbed])
        #expect(links.allSatisfy { $0.notePath == "trip.md" })
        #expect(Set(try index.allPaths()) == ["trip.md", "pic.png", "maps/Map one.pdf"])
    }

    @Test func aV1IndexIsUpgradedAndRecordsAttachments() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        write("png", root + "/pic.png")
        let pool = try DatabasePool(path: root + "/.sheaf/index.sqlite")
        try Schema.migrator.migrate(pool, upTo: "v1")
        try pool.close()
        let index = try NoteIndex(vault: vault)
        // v2-prefix-tokens re-tokenizes the FTS table, so the upgrade is one rebuild.
        #expect(index.rebuildReason == .schemaChanged)
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        #expect(try index.attachments().map(\.state) == [.pending])
    }
}
