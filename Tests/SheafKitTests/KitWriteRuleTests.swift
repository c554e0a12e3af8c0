// The write rule through Kit: an edit is made on the bytes the note holds when it is written, so
// a save an editor made between Sheaf's read and its write is kept.
import Foundation
import SheafCore
import Testing
import TestSupport
@testable import SheafKit

@Suite struct KitWriteRuleTests {
    @Test func editNoteRedoesTheEditOnBytesAnEditorSavedMeanwhile() throws {
        let v = try KitVault()
        let session = try v.session()
        let path = try session.createNote(title: "Log", folder: nil, tags: [], body: "- 07:10 woke up").path
        var seen: [String] = []
        // The write rule needs the writer lock: only `withWriterLock` lends the proof.
        try session.withWriterLock(commits: false) { (lock) throws(SheafError) in
            let writer = session.fileWriter(lock)
            try session.editNote(path, with: writer) { (text) throws(SheafError) -> String? in
                seen.append(text)
                if seen.count == 1 {
                    // The editor saves after Sheaf read the note and before it writes.
                    try? Data((text + "- 08:00 editor\n").utf8).write(to: URL(fileURLWithPath: v.root + "/" + path))
                }
                return text + "- 08:05 sheaf\n"
            }
            try writer.finish()
        }
        #expect(seen.count == 2)
        #expect(seen.last?.hasSuffix("- 08:00 editor\n") == true)
        let final = try #require(v.read(path))
        #expect(final.hasSuffix("- 07:10 woke up\n- 08:00 editor\n- 08:05 sheaf\n"), "\(final)")
    }

    @Test func appendAndAddTagsChangeOnlyWhatTheyMust() throws {
        let v = try KitVault()
        try v.write("---\ntitle: Trip\n# kept comment\n---\nbody\n", "Trip.md")
        let session = try v.session()
        try session.append("added line", to: session.resolve("Trip"))
        let report = try session.addTags(["travel", "#Travel"], to: session.resolve("Trip"))
        #expect(report.changed.count == 1, "\(report)")
        let text = try #require(v.read("Trip.md"))
        #expect(text.hasPrefix("---\ntitle: Trip\n# kept comment\n"), "\(text)")
        #expect(text.hasSuffix("---\nbody\nadded line\n"), "\(text)")
        #expect(text.lowercased().components(separatedBy: "travel").count == 2, "one tag, once: \(text)")
    }

    @Test func editsRefuseANoteThatIsNotSafeToRewrite() throws {
        let v = try KitVault()
        try v.write("---\ntitle: [broken\n---\nbody\n", "Broken.md")
        let session = try v.session()
        #expect(throws: SheafError.self) { try session.addTags(["more"], to: session.resolve("Broken.md")) }
        #expect(v.read("Broken.md") == "---\ntitle: [broken\n---\nbody\n")
        // An append leaves the front-matter's bytes as they are: it may (issue 23, item 7).
        try session.append("more", to: session.resolve("Broken.md"))
        #expect(v.read("Broken.md") == "---\ntitle: [broken\n---\nbody\nmore\n")
    }
}
