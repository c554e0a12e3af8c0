// What a session tells of a vault holding NFC/NFD twins (`café.md` composed and decomposed: equal
// as Swift Strings, two files on Linux): each twin's backlinks, orphan state and `doctor` findings
// are its own. Twins are made from bytes with open(2).
import Foundation
import SheafCore
import Testing
import TestSupport
@testable import SheafKit

@Suite struct KitPathTwinTests {
    static let nfc = "caf\u{E9}", nfd = "cafe\u{301}"

    /// A vault with both twins, one note linking to each by its own spelling.
    static func twins(_ ext: String = "md", text: String = "# Twin\n") throws -> KitVault {
        let v = try KitVault()
        ByteName.write(text, name: Array((nfc + "." + ext).utf8), in: v.root)
        ByteName.write(text, name: Array((nfd + "." + ext).utf8), in: v.root)
        return v
    }

    /// Regression: backlinks compared the resolved path with `==` (canonical equivalence), so a
    /// note linking to one twin was listed as a backlink of both.
    @Test func backlinksOfATwinAreOnlyTheNotesThatLinkToThatTwin() throws {
        let v = try Self.twins()
        ByteName.write("# A\n[[\(Self.nfc)]]\n", name: Array("a.md".utf8), in: v.root)
        ByteName.write("# B\n[[\(Self.nfd)]]\n", name: Array("b.md".utf8), in: v.root)
        let session = try v.session()
        #expect(try session.backlinks(ofPath: Self.nfc + ".md") == ["a.md"])
        #expect(try session.backlinks(ofPath: Self.nfd + ".md") == ["b.md"])
        // The language server asks the same of its link map.
        let map = try session.linkMap()
        #expect(map.linkingNotes(to: Self.nfc + ".md") == ["a.md"])
        #expect(map.linkingNotes(to: Self.nfd + ".md") == ["b.md"])
    }

    /// Regression: `attachments --orphans` kept the linking notes in a String table, so the
    /// unlinked twin of a linked image was taken as linked and never listed as an orphan.
    @Test func anUnlinkedTwinOfALinkedAttachmentIsAnOrphan() throws {
        let v = try Self.twins("png", text: "not really an image")
        ByteName.write("# A\n![[\(Self.nfc).png]]\n", name: Array("a.md".utf8), in: v.root)
        let session = try v.session()
        let orphans = try session.attachments(orphansOnly: true).map { Array($0.record.path.utf8) }
        #expect(orphans == [Array((Self.nfd + ".png").utf8)])
        let linked = try session.attachments().filter { !$0.linkedFrom.isEmpty }.map { Array($0.record.path.utf8) }
        #expect(linked == [Array((Self.nfc + ".png").utf8)])
    }

    /// Regression: `doctor` kept the linked notes in a String table, so a twin no note links to
    /// (and that links to none) was not reported as an orphan when the other twin was linked.
    @Test func doctorReportsTheOrphanTwinOfALinkedNote() throws {
        let v = try Self.twins()
        ByteName.write("# A\n[[\(Self.nfc)]]\n", name: Array("a.md".utf8), in: v.root)
        let orphans = try v.session().doctor().filter { $0.kind == .orphanNote }.map { Array($0.path.utf8) }
        #expect(orphans == [Array((Self.nfd + ".md").utf8)])
    }

    /// Regression: the headings `doctor` checks a `#heading` link against were kept by String
    /// path, so a link to one twin's heading was checked against the other twin's headings.
    @Test func doctorChecksAHeadingLinkAgainstTheHeadingsOfTheTwinItReaches() throws {
        let v = try KitVault()
        ByteName.write("# Composed\n", name: Array((Self.nfc + ".md").utf8), in: v.root)
        ByteName.write("# Decomposed\n", name: Array((Self.nfd + ".md").utf8), in: v.root)
        ByteName.write("# A\n[[\(Self.nfc)#Composed]] [[\(Self.nfd)#Decomposed]]\n", name: Array("a.md".utf8), in: v.root)
        let broken = try v.session().doctor().filter { $0.path == "a.md" }
        #expect(broken.isEmpty, "\(broken.map(\.message))")
    }

    /// Regression: the background sync remembered the conflict files it had reported in a
    /// String set, so the conflict of a note's NFC/NFD twin, arriving later, was never reported.
    @Test func theBackgroundSyncReportsTheConflictOfEachTwin() throws {
        var notices = BackgroundSyncNotices(backoff: .standard)
        func conflict(_ stem: String) throws -> [VaultChange] {
            let json = #"[{"kind":"conflict","path":"\#(stem).md","conflictFile":"\#(stem).conflict-1-b.md"}]"#
            return try JSONDecoder().decode([VaultChange].self, from: Data(json.utf8))
        }
        func paths(_ event: VaultEvent?) -> [[UInt8]] {
            guard case .conflicts(let paths)? = event else { return [] }
            return paths.map { Array($0.utf8) }
        }
        #expect(paths(notices.conflicts(try conflict(Self.nfc))) == [Array((Self.nfc + ".md").utf8)])
        #expect(paths(notices.conflicts(try conflict(Self.nfd))) == [Array((Self.nfd + ".md").utf8)])
        #expect(notices.conflicts(try conflict(Self.nfd)) == nil)
    }

    /// Regression: the files a commit found "changed moments ago" were kept in a String table,
    /// so of two twins saved together one was named (and timed) for both.
    @Test func bothTwinsSavedMomentsAgoAreNamed() throws {
        let v = try Self.twins()
        let young = VaultSession.changedWithin(60, [Self.nfc + ".md", Self.nfd + ".md"], root: v.root)
        #expect(young.count == 2, "\(young)")
    }
}
