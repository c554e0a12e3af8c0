// Editing in the browser: a save carries the blob id of the version the form showed, so a note
// changed on disk meanwhile is merged, never overwritten, and an overlap leaves a conflict file;
// a form without this server's form token writes nothing; --read-only has no write route.
import Foundation
import HTTPTypes
import SheafCore
import Testing
import TestSupport
@testable import SheafServe

@Suite struct EditTests {
    static let text = "line one\nline two\nline three\n"

    @Test func aSaveOfANoteChangedOnDiskMeanwhileMergesInsteadOfOverwriting() async throws {
        let served = try ServedVault(["Plan.md": Self.text])
        let saved = try await served.browse { browser in
            let form = try await browser.get("/edit/Plan.md")
            #expect(form.body.contains("<textarea name=\"text\"") && form.body.contains("line two"))
            let (base, csrf) = (try #require(formValue(form.body, "base")), try #require(formValue(form.body, "csrf")))
            TestFile.replace(Self.text + "line four, from an editor\n", at: served.root + "/Plan.md")
            let post = try await browser.post("/edit/Plan.md", ["text": "LINE ONE, edited\nline two\nline three\n", "base": base, "csrf": csrf])
            #expect(post.status == .seeOther)
            let location = try #require(post.headers[.location])
            #expect(location == "/n/Plan.md?saved=merged")
            return try await browser.get(location).body
        }
        #expect(saved.contains("Saved, merged with a change made meanwhile."))
        let onDisk = try String(contentsOfFile: served.root + "/Plan.md", encoding: .utf8)
        #expect(onDisk == "LINE ONE, edited\nline two\nline three\nline four, from an editor\n")
    }

    @Test func anOverlappingSaveKeepsBothVersionsWithAConflictFile() async throws {
        let served = try ServedVault(["Plan.md": Self.text])
        let location = try await served.browse { browser in
            let form = try await browser.get("/edit/Plan.md")
            let (base, csrf) = (try #require(formValue(form.body, "base")), try #require(formValue(form.body, "csrf")))
            TestFile.replace("line one, from an editor\nline two\nline three\n", at: served.root + "/Plan.md")
            let post = try await browser.post("/edit/Plan.md", ["text": "line one, from the browser\nline two\nline three\n", "base": base, "csrf": csrf])
            return post.headers[.location]
        }
        #expect(location == "/n/Plan.md?saved=conflict")
        let files = try FileManager.default.contentsOfDirectory(atPath: served.root).filter { $0.hasPrefix("Plan") }
        let conflict = try #require(files.first { $0.contains("conflict") }, "\(files)")
        #expect(try String(contentsOfFile: served.root + "/Plan.md", encoding: .utf8).hasPrefix("line one, from the browser\n"))
        #expect(try String(contentsOfFile: served.root + "/" + conflict, encoding: .utf8).contains("line one, from an editor\n"))
    }

    @Test func aFormWithoutThisServersFormTokenWritesNothing() async throws {
        let served = try ServedVault(["Plan.md": Self.text])
        try await served.browse { browser in
            let form = try await browser.get("/edit/Plan.md")
            let base = try #require(formValue(form.body, "base"))
            for csrf in [nil, "", String(repeating: "0", count: 64), served.server.token] {
                var fields = ["text": "overwritten\n", "base": base]
                fields["csrf"] = csrf
                let post = try await browser.post("/edit/Plan.md", fields)
                #expect(post.status == .forbidden, "\(csrf ?? "none")")
            }
        }
        #expect(try String(contentsOfFile: served.root + "/Plan.md", encoding: .utf8) == Self.text)
    }

    @Test func readOnlyServesNoWriteRouteAndOffersNone() async throws {
        var options = ServeOptions()
        options.readOnly = true
        let served = try ServedVault(["Plan.md": Self.text], options: options)
        try await served.browse { browser in
            #expect(try await browser.get("/edit/Plan.md").status == .notFound)
            let post = try await browser.post("/edit/Plan.md", ["text": "overwritten\n", "base": "x", "csrf": "x"])
            #expect(post.status == .notFound || post.status == .methodNotAllowed)
            let page = try await browser.get("/n/Plan.md")
            #expect(page.status == .ok && !page.body.contains("/edit/") && !page.body.contains(#"id="edit""#) && !page.body.contains(#"id="today""#))
        }
        #expect(try String(contentsOfFile: served.root + "/Plan.md", encoding: .utf8) == Self.text)
    }
}
