// Notes are untrusted (they arrive from remotes and shares): no note, file name, title, tag or
// property may put a script, an event handler, a style, a frame or a remote resource into a page.
// Every page of a vault of hostile notes is read by a small HTML tokenizer and held to that.
import Foundation
import HTTPTypes
import SheafCore
import Testing
import TestSupport
@testable import SheafServe

@Suite struct HostileNoteTests {
    static let corpus: [String: String] = [
        "Hostile/script.md": "<script>alert(1)</script>\n\nText <script>document.title='pwned'</script> inline\n\n<SCRIPT SRC=//evil.example/x.js></SCRIPT>\n",
        "Hostile/handlers.md": """
            <img src=x onerror="alert(1)">

            <a href="#" onclick="alert(1)">x</a>

            <div onmouseover=alert(1)>hover</div>

            Inline <b onmouseover=alert(1)>bold</b> and <details open ontoggle=alert(1)>

            """,
        "Hostile/javascript links.md": """
            [one](javascript:alert(1)) [two](JaVaScRiPt:alert(1)) <javascript:alert(1)> [three](vbscript:msgbox)
            [four](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) [five](java&#x09;script:alert(1))
            [six](&#106;avascript:alert(1)) [[javascript:alert(1)]] [[Food|](javascript:alert(1))]]
            ![img](javascript:alert(1)) [seven]: javascript:alert(1)

            [seven]

            """,
        "Hostile/svg.md": """
            <svg><script>alert(1)</script></svg>

            <svg onload=alert(1)><circle r=4 /></svg> and inline <svg/onload=alert(1)>

            ![[evil.svg]] ![an svg](evil.svg)

            <math><mtext><script>alert(1)</script></mtext></math>

            """,
        "Hostile/css.md": """
            <style>body { background: url(https://evil.example/x.png) }</style>

            <p style="background:expression(alert(1))">styled</p>

            <link rel=stylesheet href=https://evil.example/x.css>

            Inline <span style="position:fixed;top:0">over</span>

            """,
        "Hostile/broken.md": """
            <img src=x onerror=alert(1)//

            <scr<script>ipt>alert(1)</script>

            <!--<script>alert(1)//--> <a href="javascript:alert(1)"

            </textarea><script>alert(1)</script> <iframe src=https://evil.example></iframe>

            <object data=evil.swf></object><embed src=evil.swf><base href=https://evil.example/>

            """,
        "Hostile/remote.md": """
            ![x](https://evil.example/track.png) ![](//evil.example/y.png) ![z](/\\evil.example/z.png)

            <img src="https://evil.example/w.png"> [fine](https://example.org/page)

            """,
        "Hostile/labels.md": """
            [[Food|<img src=x onerror=alert(1)>]] [[Food#"><script>alert(1)</script>]] [[Food|"onmouseover="alert(1)]]

            | a | b |
            |---|---|
            | [[Food\\|<script>alert(1)</script>]] | x |

            """,
        "Hostile/<img src=x onerror=alert(1)>.md": "named badly, linking [[Food]]\n",
        "Hostile/properties.md": """
            ---
            title: "\\"><script>alert(1)</script>"
            tags: ["<b>x</b>", "\\"onmouseover=alert(1)"]
            note: "<script>alert(1)</script>"
            "<img src=x onerror=alert(1)>": 1
            link: "[[<script>alert(1)</script>]]"
            aliases: ["<svg onload=alert(1)>"]
            ---
            #tag"onmouseover=alert(1) body of [[Food]]

            """,
        // What the obsidian-hub vault holds in thousands of real notes: raw HTML inside a link's
        // label, a sized remote image, a video frame, styled spans (Tests/Browser/hub_check.py).
        "Hostile/hub.md": """
            Links: [<button id=HH onclick=alert(1)>Open in Obsidian</button>](obsidian://show-plugin?id=x) [x<img src=x onerror=alert(1)>](https://example.org)

            ![Screenshot|400](https://i.imgur.com/x.png) ![[https://i.imgur.com/y.png|300]]

            <iframe width="560" height="315" src="https://www.youtube.com/embed/x" allowfullscreen></iframe>

            <span role="presentation" style="background:url(https://evil.example/x.png)">styled</span> <center><kbd>Ctrl</kbd></center>

            <span class="git-footer">[Edit In GitHub](https://github.dev/x "git-hub-edit-note") | [Copy](javascript:alert(1) "x")</span>

            """,
        // A quote then a combining mark is one Character: escaping Character by Character (as
        // swift-mustache's HTML escaping does) left that `"` as it was, and it ended the attribute.
        "Hostile/combining.md": """
            ---
            title: "\"\u{301} onmouseover=alert(1) x=\""
            tags: ["\"\u{301}onfocus=alert(1)"]
            aliases: ["'\u{301} onmouseover=alert(1) x='"]
            ---
            body [[Food]]

            """,
        "Hostile/x\"\u{301} onmouseover=alert(1).md": "named with a quote and a combining mark\n",
        "Food.md": "# Food\n\ncustard alert\n",
    ]

    @Test func noHostileNotePutsScriptStyleFramesOrRemoteResourcesIntoAnyPage() async throws {
        let served = try ServedVault(Self.corpus)
        TestFile.write(#"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>"#,
                       to: served.root + "/Hostile/evil.svg")
        try await served.browse { browser in
            var pages = ["/", "/f/Hostile", "/tags", "/search?q=alert", "/search?fragment=1&q=alert", "/search?q=script",
                         "/search?q=%22%CC%81%20autofocus%20onfocus%3Dalert(1)%20x%3D%22"]
            pages += Self.corpus.keys.map { WebPaths.url("/n", $0) }
            let tags = try await browser.get("/tags")
            pages += HTMLTokens.attributes(tags.body, tag: "a", name: "href").filter { $0.hasPrefix("/tag/") }
            for uri in pages {
                let page = try await browser.get(uri)
                #expect(page.status == .ok, "\(uri)")
                for problem in HTMLTokens.problems(page.body) { Issue.record("\(uri): \(problem)") }
            }
            let named = try await browser.get(WebPaths.url("/n", "Hostile/<img src=x onerror=alert(1)>.md"))
            #expect(named.body.contains("named badly"))

            // The SVG itself: never inline, never a document of this origin that could run.
            let svg = try await browser.get("/file/Hostile/evil.svg")
            #expect(svg.headers[.contentType] == "application/octet-stream")
            #expect(svg.headers[.contentDisposition]?.hasPrefix("attachment") == true)
            #expect(svg.headers[.contentSecurityPolicy]?.contains("sandbox") == true)
            #expect(try await browser.get("/thumb/Hostile/evil.svg").status == .notFound)
        }
    }

    @Test func theTokenizerFindsWhatItLooksFor() {
        // The check itself can fail: each of these is caught.
        #expect(!HTMLTokens.problems(#"<p>x</p><script>alert(1)</script>"#).isEmpty)
        #expect(!HTMLTokens.problems(#"<img src="/a.png" onerror="x">"#).isEmpty)
        #expect(!HTMLTokens.problems(#"<a href="javascript:alert(1)">x</a>"#).isEmpty)
        #expect(!HTMLTokens.problems(#"<img src="https://evil.example/x.png">"#).isEmpty)
        #expect(!HTMLTokens.problems(#"<p style="color:red">x</p>"#).isEmpty)
        #expect(!HTMLTokens.problems(#"<svg></svg>"#).isEmpty)
        #expect(!HTMLTokens.problems(#"<textarea>"#).isEmpty && HTMLTokens.problems(#"<textarea name="text"></textarea>"#).isEmpty)
        #expect(HTMLTokens.problems(#"<p>&lt;script&gt;alert(1)&lt;/script&gt; <a href="/n/x.md">x</a></p>"#).isEmpty)
    }
}

/// A small HTML tokenizer: tags and their attributes, enough to judge what a page may run or load.
enum HTMLTokens {
    struct Tag { var name: String; var closing: Bool; var attributes: [(name: String, value: String)] }

    static func tags(_ html: String) -> [Tag] {
        let b = Array(html.utf8)
        var out: [Tag] = []
        var i = 0
        while i < b.count {
            guard b[i] == 0x3C, i + 1 < b.count else { i += 1; continue }
            if b[i + 1] == 0x21 {  // <!-- ... --> or <!doctype>
                if let end = find(b, Array("-->".utf8), from: i), b[i..<min(b.count, i + 4)].elementsEqual(Array("<!--".utf8)) { i = end + 3 }
                else { i += 2 }
                continue
            }
            var j = i + 1
            let closing = b[j] == 0x2F
            if closing { j += 1 }
            let nameStart = j
            while j < b.count, isNameByte(b[j]) { j += 1 }
            guard j > nameStart else { i += 1; continue }
            var tag = Tag(name: String(decoding: b[nameStart..<j], as: UTF8.self).lowercased(), closing: closing, attributes: [])
            // attributes until '>'
            while j < b.count, b[j] != 0x3E {
                if b[j] == 0x20 || b[j] == 0x0A || b[j] == 0x09 || b[j] == 0x2F || b[j] == 0x0D { j += 1; continue }
                let an = j
                while j < b.count, ![0x3D, 0x3E, 0x20, 0x0A, 0x09, 0x0D, 0x2F].contains(b[j]) { j += 1 }
                if j == an { j += 1; continue }
                let name = String(decoding: b[an..<j], as: UTF8.self).lowercased()
                var value = ""
                if j < b.count, b[j] == 0x3D {
                    j += 1
                    if j < b.count, b[j] == 0x22 || b[j] == 0x27 {
                        let q = b[j]; j += 1
                        let vs = j
                        while j < b.count, b[j] != q { j += 1 }
                        value = String(decoding: b[vs..<min(j, b.count)], as: UTF8.self)
                        j += 1
                    } else {
                        let vs = j
                        while j < b.count, b[j] != 0x20, b[j] != 0x3E, b[j] != 0x0A { j += 1 }
                        value = String(decoding: b[vs..<j], as: UTF8.self)
                    }
                }
                tag.attributes.append((name, value))
            }
            out.append(tag)
            i = j + 1
        }
        return out
    }

    static func attributes(_ html: String, tag: String, name: String) -> [String] {
        tags(html).filter { $0.name == tag }.flatMap { $0.attributes.filter { $0.name == name }.map(\.value) }
    }

    static let forbidden: Set<String> = ["style", "iframe", "frame", "object", "embed", "svg", "math", "base", "frameset", "applet", "template", "noscript"]

    /// What a page must not hold: script but the server's own, a forbidden element, an event
    /// handler or style attribute, a script URL, an image or resource from elsewhere.
    static func problems(_ html: String) -> [String] {
        var found: [String] = []
        for tag in tags(html) where !tag.closing {
            let attrs = Dictionary(tag.attributes.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
            if tag.name == "script" && attrs["src"] != "/assets/sheaf.js" { found.append("a script element \(attrs)") }
            if tag.name == "link" && !(attrs["rel"] == "stylesheet" && attrs["href"] == "/assets/sheaf.css") { found.append("a link element \(attrs)") }
            if forbidden.contains(tag.name) { found.append("a \(tag.name) element") }
            // The server's own forms (edit, append, new note) have one textarea each, named; a
            // note's text must never open one (it would swallow the page up to a `</textarea>`).
            if tag.name == "textarea" && !["text", "body"].contains(attrs["name"] ?? "") { found.append("a textarea element \(attrs)") }
            for (name, value) in tag.attributes {
                if name.hasPrefix("on") { found.append("an event handler \(name)=\(value) on \(tag.name)") }
                if name == "style" || name == "srcdoc" || name == "formaction" { found.append("a \(name) attribute on \(tag.name)") }
                let squeezed = String(value.lowercased().unicodeScalars.filter { $0.value > 0x20 })
                if ["href", "src", "action", "data", "poster", "background", "xlink:href"].contains(name),
                   squeezed.hasPrefix("javascript:") || squeezed.hasPrefix("vbscript:") || squeezed.hasPrefix("data:") {
                    found.append("a script URL \(name)=\(value) on \(tag.name)")
                }
                if ["src", "srcset", "poster", "background", "data"].contains(name), !MarkdownHTML.isOwnOrigin(value) {
                    found.append("a resource from elsewhere \(name)=\(value) on \(tag.name)")
                }
            }
        }
        return found
    }

    private static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x3A
    }

    private static func find(_ b: [UInt8], _ needle: [UInt8], from: Int) -> Int? {
        var i = from
        while i + needle.count <= b.count {
            if b[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
