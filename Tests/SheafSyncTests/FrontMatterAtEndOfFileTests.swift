// Issue 9, item 8: a front-matter block that ends the file without a line break (`---` as the
// last bytes) was fused with the other side's first body line (`---body`), so the merged note
// lost its front-matter (title and tags vanished) and the merge still reported success.
import Foundation
import SheafCore
import Testing
import TestSupport
@testable import SheafSync
@testable import SheafText

@Suite struct FrontMatterAtEndOfFileTests {
    @Test func frontMatterEndingTheFileWithoutNewlineIsNotFusedWithTheOtherSidesBody() throws {
        let b = "---\ntitle: A\n---\n"
        let o = "---\ntitle: A\ntags: [x]\n---"
        let t = "---\ntitle: A\n---\nnew body\n"
        let r = try merge(b, o, t)
        #expect(r.remote == nil)
        #expect(r.note == "---\ntitle: A\ntags: [x]\n---\nnew body\n")
        // The other way round: the remote side's closing line ends the file.
        let swapped = try merge(b, t, o)
        #expect(swapped.note == "---\ntitle: A\ntags: [x]\n---\nnew body\n")
    }

    @Test func conflictFileOfAFrontMatterOnlySideKeepsItsFrontMatter() throws {
        // The local side deleted the body and ended the file after `---`; the remote side
        // appended to the body: an overlap, whose conflict file is rendered from the local
        // front-matter and the remote body.
        let b = "---\ntitle: A\n---\nbody\n"
        let o = "---\ntitle: A\ntags: [x]\n---"
        let t = "---\ntitle: A\n---\nbody\nmore\n"
        let r = try merge(b, o, t)
        #expect(r.note == o)
        let remote = try #require(r.remote)
        #expect(remote == "---\ntitle: A\ntags: [x]\n---\nbody\nmore\n")
        let file = String(decoding: ConflictFile.content(remote: Array(remote.utf8), notePath: "n.md", isNote: true), as: UTF8.self)
        let doc = NoteDocument(text: file)
        let fm = try FrontMatter(parsing: try #require(doc.frontMatter))
        #expect(fm["title"] == .scalar("A") && fm["conflict-of"] == .scalar("n.md"))
        #expect(doc.body == "body\nmore\n")
    }

    @Test func renderedDocumentNeverJoinsTheClosingLineToTheBody() {
        var doc = NoteDocument(text: "\u{FEFF}---\r\ntitle: A\r\n---")
        #expect(doc.body.isEmpty && doc.rendered == "\u{FEFF}---\r\ntitle: A\r\n---", "an unedited note renders byte for byte")
        doc.body = "text\r\n"
        #expect(doc.rendered == "\u{FEFF}---\r\ntitle: A\r\n---\r\ntext\r\n")
        #expect(NoteDocument(text: doc.rendered).frontMatter?.lines == ["title: A\r\n"])
    }

    @Test func renderedBodyThatWouldReadAsFrontMatterIsPrecededByAnEmptyBlock() {
        var doc = NoteDocument(text: "---\r\na: 1\r\n---\r\n---\r\nb: 2\r\n---\r\ntext\r\n")
        doc.frontMatter = nil
        #expect(doc.rendered == "---\r\n---\r\n---\r\nb: 2\r\n---\r\ntext\r\n")
        #expect(NoteDocument(text: doc.rendered).body == doc.body)
        let plain = NoteDocument(text: "---\nnot closed\n")
        #expect(plain.frontMatter == nil && plain.rendered == "---\nnot closed\n", "a body that cannot read as a block renders as is")
    }

    /// One side of a merge, built from the shapes that met in this bug.
    static func variant(frontMatter: Int, body: Int, finalNewline: Bool, ending: Int, bom: Bool) -> [UInt8] {
        var lines = [[], ["---", "title: Á"], ["---", "title: Á", "tags: [x, ü]"]][frontMatter]
        if frontMatter > 0 { lines.append("---") }
        lines += [[], ["body"], ["body café", "---", "more 日本語"]][body]
        var out = bom ? "\u{FEFF}" : ""
        for (i, line) in lines.enumerated() {
            out += line
            if i < lines.count - 1 || finalNewline { out += ending == 1 || (ending == 2 && i % 2 == 1) ? "\r\n" : "\n" }
        }
        return Array(out.utf8)
    }

    /// Every combination of: front-matter absent, unchanged or changed; body empty, unchanged or
    /// edited with a `---` line and Unicode; final line break or not; LF, CRLF or mixed endings;
    /// BOM or not, on the local side against a smaller set on the remote side (the full product
    /// on both sides with SHEAF_LONG_TESTS=1); each merge checked against every law of Sync.
    @Test func everyShapeOfAFrontMatterEndingTheFileKeepsTheLawsOfSync() {
        let long = ProcessInfo.processInfo.environment["SHEAF_LONG_TESTS"] == "1"
        let base = Array("---\ntitle: Á\n---\nbody\n".utf8)
        func sides(full: Bool) -> [[UInt8]] {
            var out: [[UInt8]] = []
            for fm in 0...2 { for body in 0...2 { for nl in [true, false] {
                for ending in full ? [0, 1, 2] : [0] { for bom in full ? [false, true] : [false] {
                    out.append(Self.variant(frontMatter: fm, body: body, finalNewline: nl, ending: ending, bom: bom))
                } }
            } } }
            return out
        }
        var failed = 0
        for ours in sides(full: true) {
            for theirs in sides(full: long) {
                let failures = NoteMergeLaws.check(base: base, ours: ours, theirs: theirs)
                if !failures.isEmpty {
                    failed += 1
                    if failed <= 10 {
                        Issue.record("local \(String(decoding: ours, as: UTF8.self).debugDescription), remote \(String(decoding: theirs, as: UTF8.self).debugDescription): \(failures.joined(separator: "; "))")
                    }
                }
            }
        }
        #expect(failed == 0)
    }
}
