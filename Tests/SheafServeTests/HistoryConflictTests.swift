// History, conflicts and the daily note in the browser: a note's versions and one restored, a
// conflict file listed and resolved, today's note made by the Today button; each change needs
// the form token, and --read-only has none of these routes.
import Foundation
import HTTPTypes
import SheafCore
import Testing
import TestSupport
@testable import SheafServe

@Suite struct HistoryConflictTests {
    static func commit(_ served: ServedVault, _ message: String) {
        #expect(GitCLI.run(["add", "-A"], in: served.root).status == 0)
        #expect(GitCLI.run(["commit", "-q", "-m", message], in: served.root).status == 0)
    }

    @Test func aNoteShowsItsVersionsAndRestoresOne() async throws {
        let served = try ServedVault(["Plan.md": "first version\n"])
        Self.commit(served, "first")
        TestFile.replace("second version\n", at: served.root + "/Plan.md")
        Self.commit(served, "second")
        try await served.browse { browser in
            #expect(try await browser.get("/n/Plan.md").body.contains(#"<a href="/history/Plan.md">History</a>"#))
            let history = try await browser.get("/history/Plan.md")
            let versions = HTMLTokens.attributes(history.body, tag: "a", name: "href").filter { $0.hasPrefix("/version/") && !$0.hasSuffix("#diff") }
            #expect(versions.count == 2, "\(history.body)")
            let oldest = try #require(versions.last)
            let version = try await browser.get(oldest)
            #expect(version.body.contains("<pre class=\"version\">first version\n</pre>"))
            let rev = try #require(formValue(version.body, "rev"))
            #expect(try await browser.post("/restore/Plan.md", ["rev": rev]).status == .forbidden)
            let csrf = try #require(formValue(version.body, "csrf"))
            let restored = try await browser.post("/restore/Plan.md", ["rev": rev, "csrf": csrf])
            #expect(restored.status == .seeOther && restored.headers[.location] == "/n/Plan.md")
        }
        #expect(try String(contentsOfFile: served.root + "/Plan.md", encoding: .utf8) == "first version\n")
    }

    @Test func aVersionShowsItsDiffToTodayLineByLineAsText() async throws {
        let kept = (1...12).map { "kept line \($0)" }.joined(separator: "\n")
        let served = try ServedVault(["Plan.md": "first line\n" + kept + "\nold line\n"])
        Self.commit(served, "first")
        TestFile.replace("first line\n" + kept + "\nnew line <script>x()</script>\n", at: served.root + "/Plan.md")
        try await served.browse { browser in
            let history = try await browser.get("/history/Plan.md")
            let diffLink = try #require(HTMLTokens.attributes(history.body, tag: "a", name: "href").first { $0.hasSuffix("#diff") })
            let version = try await browser.get(diffLink)
            #expect(version.status == .ok)
            #expect(version.body.contains(#"<div class="removed"><span class="sign">-</span>old line</div>"#), "\(version.body)")
            #expect(version.body.contains(#"<div class="added"><span class="sign">+</span>new line &lt;script&gt;x()&lt;/script&gt;</div>"#))
            // Three kept lines before the change; the nine above them are counted, not shown.
            #expect(version.body.contains(#"<div class="kept"><span class="sign"> </span>kept line 10</div>"#))
            #expect(!version.body.contains(#"kept line 9</div>"#) && version.body.contains("10 lines as they were"))
            #expect(HTMLTokens.tags(version.body).filter { $0.name == "script" && !$0.closing }.count == 1)  // the server's own
        }
        TestFile.replace("first line\n" + kept + "\nold line\n", at: served.root + "/Plan.md")
        try await served.browse { browser in
            let history = try await browser.get("/history/Plan.md")
            let diffLink = try #require(HTMLTokens.attributes(history.body, tag: "a", name: "href").first { $0.hasSuffix("#diff") })
            #expect(try await browser.get(diffLink).body.contains("The note today is this version."))
        }
    }

    @Test func aConflictFileIsListedAndResolvedAsTheCLIResolvesIt() async throws {
        let served = try ServedVault([
            "Plan.md": "ours\n",
            "Plan.conflict-20260101-000000-laptop.md": "---\nconflict-of: Plan.md\n---\ntheirs\n",
        ])
        Self.commit(served, "both")
        try await served.browse { browser in
            let list = try await browser.get("/conflicts")
            #expect(list.body.contains(#"<a href="/n/Plan.md">Plan.md</a>"#) && list.body.contains("Plan.conflict-20260101-000000-laptop.md"))
            let csrf = try #require(formValue(list.body, "csrf"))
            let resolved = try await browser.post("/resolve", ["note": "Plan.md", "keep": "local", "csrf": csrf])
            #expect(resolved.status == .seeOther)
            #expect(try await browser.get("/conflicts").body.contains("No conflicts."))
        }
        #expect(!FileManager.default.fileExists(atPath: served.root + "/Plan.conflict-20260101-000000-laptop.md"))
        #expect(try String(contentsOfFile: served.root + "/Plan.md", encoding: .utf8) == "ours\n")
    }

    @Test func theTodayButtonMakesOrOpensTodaysDailyNote() async throws {
        let served = try ServedVault([:])
        let location = try await served.browse { browser in
            let home = try await browser.get("/")
            let csrf = try #require(formValue(home.body, "csrf"))
            #expect(try await browser.post("/daily", [:]).status == .forbidden)
            let made = try await browser.post("/daily", ["csrf": csrf])
            #expect(made.status == .seeOther)
            let again = try await browser.post("/daily", ["csrf": csrf])
            #expect(again.headers[.location] == made.headers[.location])
            return made.headers[.location] ?? ""
        }
        let f = DateFormatter()
        f.dateFormat = "yyyy-MM-dd"
        #expect(location == "/n/" + f.string(from: Date()) + ".md")
        #expect(FileManager.default.fileExists(atPath: served.root + "/" + f.string(from: Date()) + ".md"))
    }

    @Test func readOnlyHasNoRouteThatRestoresResolvesOrMakesANote() async throws {
        var options = ServeOptions()
        options.readOnly = true
        let served = try ServedVault([
            "Plan.md": "ours\n",
            "Plan.conflict-20260101-000000-laptop.md": "---\nconflict-of: Plan.md\n---\ntheirs\n",
        ], options: options)
        Self.commit(served, "both")
        try await served.browse { browser in
            for uri in ["/daily", "/restore/Plan.md", "/resolve"] {
                let post = try await browser.post(uri, ["csrf": "x", "note": "Plan.md", "keep": "remote", "rev": "HEAD"])
                #expect(post.status == .notFound || post.status == .methodNotAllowed, "\(uri)")
            }
            let list = try await browser.get("/conflicts")
            #expect(list.body.contains("Plan.conflict-") && !list.body.contains("<form method=\"post\"") && !list.body.contains("id=\"today\""))
        }
        #expect(FileManager.default.fileExists(atPath: served.root + "/Plan.conflict-20260101-000000-laptop.md"))
    }
}
