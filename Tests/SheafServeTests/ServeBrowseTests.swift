// Browsing a vault through the real router: folders from the index, a note rendered with its
// links resolved as the index resolves them (headings, tables, embeds through thumbnails,
// property links), tags, backlinks with their lines, search with highlights and the parser's
// words for a malformed query, and files only from the paths the index holds.
import Foundation
import HTTPTypes
import SheafCore
import Testing
import TestSupport
@testable import SheafServe

@Suite struct ServeBrowseTests {
    static func vault() throws -> ServedVault {
        let served = try ServedVault([
            "Trips/Lisbon.md": """
                ---
                title: Lisbon
                tags: [travel]
                cover: "[[photo.png]]"
                rating: 5
                ---
                # Lisbon

                See [[Food#Pastel de nata]] and [[Porto|the north]].

                ![[photo.png]]

                | city | link |
                |---|---|
                | Porto | [[Porto\\|P]] |

                - [ ] pack
                - [x] book

                ```
                [[NotALink]]
                ```

                [[Nowhere]] and [the food](../Food.md)

                """,
            "Trips/Porto.md": "Porto links back to [[Lisbon]].\n",
            "Food.md": "# Food\n\n## Pastel de nata\n\ncustard tart\n",
        ])
        served.writeBytes(tinyPNG, "Media/photo.png")
        return served
    }

    @Test func aNoteRendersItsLinksEmbedsPropertiesTagsAndBacklinks() async throws {
        let served = try Self.vault()
        try await served.browse { browser in
            let page = try await browser.get("/n/Trips/Lisbon.md")
            #expect(page.status == .ok)
            let html = page.body
            #expect(html.contains(#"<a href="/n/Food.md#pastel-de-nata">Food &gt; Pastel de nata</a>"#))
            #expect(html.contains(#"<a href="/n/Trips/Porto.md">the north</a>"#))
            #expect(html.contains(#"<a href="/file/Media/photo.png"><img src="/thumb/Media/photo.png" alt="photo.png" /></a>"#))
            #expect(html.contains(#"<td><a href="/n/Trips/Porto.md">P</a></td>"#))
            #expect(html.contains(#"<a href="/n/Food.md">the food</a>"#))
            #expect(html.contains(#"type="checkbox""#))
            #expect(html.contains("[[NotALink]]\n</code></pre>"))
            #expect(html.contains(#"<a href="/search?q=Nowhere">\[\[Nowhere\]\]</a>"#) || html.contains(#"<a href="/search?q=Nowhere">[[Nowhere]]</a>"#))
            #expect(html.contains(#"<a class="tag" href="/tag/travel">#travel</a>"#))
            #expect(html.contains("<th>rating</th><td><span>5</span>"))
            #expect(html.contains(#"<th>cover</th><td><a href="/file/Media/photo.png">[[photo.png]]</a>"#))
            #expect(html.contains(#"<a href="/n/Trips/Porto.md">Porto</a><blockquote>Porto links back to [[Lisbon]].</blockquote>"#))

            let food = try await browser.get("/n/Food.md")
            #expect(food.body.contains(#"<h2 id="pastel-de-nata">Pastel de nata</h2>"#))
            #expect(food.body.contains(#"<a href="/n/Trips/Lisbon.md">Lisbon</a><blockquote>See [[Food#Pastel de nata]] and [[Porto|the north]].</blockquote>"#))
            let thumb = try await browser.get("/thumb/Media/photo.png")
            #expect(thumb.status == .ok && thumb.headers[.contentType] == "image/png")
        }
    }

    @Test func foldersAndTagsListWhatTheIndexHolds() async throws {
        let served = try Self.vault()
        try await served.browse { browser in
            let root = try await browser.get("/")
            #expect(root.body.contains(#"<a href="/f/Trips">Trips/</a>"#) && root.body.contains(#"<a href="/f/Media">Media/</a>"#))
            #expect(root.body.contains(#"<a href="/n/Food.md">Food</a>"#))
            #expect(!root.body.contains("Lisbon"))  // not at the root
            let trips = try await browser.get("/f/Trips")
            #expect(trips.body.contains(#"<a href="/n/Trips/Lisbon.md">Lisbon</a>"#) && trips.body.contains(#"href="/n/Trips/Porto.md""#))
            let media = try await browser.get("/f/Media")
            #expect(media.body.contains(#"<a href="/file/Media/photo.png">photo.png</a>"#))
            #expect(try await browser.get("/f/Nothing").status == .notFound)
            let tags = try await browser.get("/tags")
            #expect(tags.body.contains(#"<a class="tag" href="/tag/travel">#travel</a>"#))
            let travel = try await browser.get("/tag/travel")
            #expect(travel.body.contains(#"<a href="/n/Trips/Lisbon.md">Lisbon</a>"#) && !travel.body.contains("Porto.md"))
        }
    }

    @Test func searchHighlightsMatchesAndSaysWhatIsWrongWithAQuery() async throws {
        let served = try Self.vault()
        try await served.browse { browser in
            let page = try await browser.get("/search?q=custard")
            #expect(page.body.contains(#"<a href="/n/Food.md">Food</a>"#) && page.body.contains("<mark>custard</mark>"))
            #expect(page.body.contains(#"value="custard""#))
            let fragment = try await browser.get("/search?fragment=1&q=tag%3Atravel")
            #expect(fragment.body.hasPrefix("<") && !fragment.body.contains("<html") && fragment.body.contains("/n/Trips/Lisbon.md"))
            let typo = try await browser.get("/search?q=-")
            #expect(typo.status == .ok && typo.body.contains("cannot read the query: a lone `-`"))
            let none = try await browser.get("/search?q=zzzunknown")
            #expect(none.body.contains("No note matches."))
        }
    }

    /// A URL names a file only when the index holds its path: nothing in .git or .sheaf, no
    /// path climbing out of the vault, however it is spelt.
    @Test func filesOutsideTheIndexedPathsAreNeverServed() async throws {
        let served = try Self.vault()
        TestFile.write("outside\n", to: served.temp.path + "/outside.md")
        try await served.browse { browser in
            for uri in ["/file/.git/config", "/file/.sheaf/config.toml", "/file/.sheaf/index.sqlite", "/file/../outside.md",
                        "/file/%2E%2E/outside.md", "/file/Trips/..%2F..%2Foutside.md", "/n/..%2Foutside.md", "/f/.git",
                        "/f/..%2F", "/thumb/.git/HEAD", "/file/", "/n/.git/HEAD"] {
                let page = try await browser.get(uri)
                #expect(page.status == .notFound || page.status == .badRequest, "\(uri)")
                #expect(!page.body.contains("outside") && !page.body.contains("[core]") && !page.body.contains("ref:"), "\(uri)")
            }
            let note = try await browser.get("/file/Food.md")
            #expect(note.status == .ok && note.headers[.contentType] == "text/plain; charset=utf-8")
        }
    }
}
