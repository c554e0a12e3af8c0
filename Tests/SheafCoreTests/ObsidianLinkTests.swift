// One test per way Sheaf read links differently from Obsidian (issue 12), on notes written for
// these tests: what counts as a link, what it resolves to, and how `mv` rewrites it.
import Testing
@testable import SheafCore

@Suite struct ObsidianLinkTests {
    func targets(_ body: String) -> [String] { MarkdownScan(body: body).links.map(\.target) }

    @Test func linksInsideHTMLCommentsAreNotCounted() {
        let body = """
            <!-- template: [[Template Hub]] -->

            Text <!-- inline [[Hidden]] --> and [[Shown]].
            A comment over lines <!-- [[Also hidden]]
            still [[Hidden too]] --> ends [[After]].

            <!--
            [[Block hidden]]
            -->
            %% Obsidian counts links in its own comments: [[Percent comment]] %%
            """
        #expect(targets(body) == ["Shown", "After", "Percent comment"])
    }

    @Test func frontMatterPropertyLinksAreLinks() {
        let text = """
            ---
            categories: "[[Books]]"
            cover: '[[photo.jpg]]'
            related:
              - "[[Alpha]]"
              - "[[Beta|the second]]"
            flow: ["[[Gamma]]", plain]
            nested: [[Not a link]]
            # comment: "[[Commented]]"
            title: see [[Inline]] here
            ---
            Body [[Delta]].
            """
        let note = Note(path: "n.md", bytes: Array(text.utf8))
        #expect(note.links.map(\.target) == ["Books", "photo.jpg", "Alpha", "Beta", "Gamma", "Delta"])
        #expect(note.links.prefix(5).allSatisfy { $0.kind == .property })
        // Each range points at the target's bytes in the front-matter block.
        let block = Array(NoteDocument(text: text).frontMatter!.rendered.utf8)
        #expect(note.links.prefix(5).map { String(decoding: block[$0.targetRange], as: UTF8.self) } == ["Books", "photo.jpg", "Alpha", "Beta", "Gamma"])
    }

    @Test func escapedPipeInTableReadsTheTarget() {
        let body = """
            | Note | Why |
            | --- | --- |
            | [[Target\\|alias]] | [[Other#Part\\|shown]] |
            """
        let links = MarkdownScan(body: body).links
        #expect(links.map(\.target) == ["Target", "Other"])
        #expect(links.map(\.label) == ["alias", "shown"])
        #expect(links[1].fragment == "Part")
        #expect(links.allSatisfy { $0.inTable })
    }

    @Test func codeFenceInsideQuoteOrCalloutIsCode() {
        let body = """
            > [!example] A callout
            > ```
            > [[In callout code]] #notatag
            > ```
            > After [[Callout text]]

            > Quote
            >
            >     [[Indented code in quote]]

            - item
              ~~~
              [[In list code]]
              ~~~
            - [[List text]] #real
            """
        let scan = MarkdownScan(body: body)
        #expect(scan.links.map(\.target) == ["Callout text", "List text"])
        #expect(scan.tags == ["real"])
    }

    @Test func markdownLinksByNameAndVaultRootPathsResolve() {
        let t = LinkTargets(paths: ["Media/image.png", "Notes/Note.md", "Folder/Note 2.md", "A/Source.md"])
        for (target, expected) in [("image.png", "Media/image.png"), ("Note.md", "Notes/Note.md"),
                                   ("Folder/Note 2.md", "Folder/Note 2.md"), ("/Folder/Note 2.md", "Folder/Note 2.md")] {
            let link = MarkdownScan(body: "[t](\(LinkRewriter.percentEncoded(target)))").links[0]
            #expect(t.resolve(link, from: "A/Source.md") == expected, "\(target)")
        }
    }

    @Test func relativeWikiLinksResolve() {
        let t = LinkTargets(paths: ["A/B/Target.md", "C/Other.md", "A/Source.md", "Target.md"])
        #expect(t.resolve("./B/Target", from: "A/Source.md") == "A/B/Target.md")
        #expect(t.resolve("../C/Other", from: "A/Source.md") == "C/Other.md")
        #expect(t.resolve("./Target", from: "A/Source.md") == nil)  // a relative path is that path only
        #expect(t.resolve("/Target", from: "A/Source.md") == "Target.md")
    }

    @Test func candidatesUnderTheSourceFolderComeFirst() {
        let t = LinkTargets(paths: ["A/B/Target.md", "C/Target.md", "A/Source.md", "D/E/F/Target.md"])
        #expect(t.resolve("Target", from: "A/Source.md") == "A/B/Target.md")
        #expect(t.resolve("Target", from: "Z/Elsewhere.md") == "C/Target.md")  // then the shortest path
        #expect(t.resolve("Target", from: "D/x.md") == "D/E/F/Target.md")
    }

    @Test func selfHeadingLinkResolvesToItsNote() {
        let t = LinkTargets(paths: ["Notes/Self.md"])
        let links = MarkdownScan(body: "[[#Heading]] [[#^block-id]] [up](#heading)").links
        #expect(links.map { t.resolve($0, from: "Notes/Self.md") } == ["Notes/Self.md", "Notes/Self.md", "Notes/Self.md"])
        #expect(links.map(\.fragment) == ["Heading", "^block-id", "heading"])
    }

    @Test func folderMoveDoesNotRecaseLinksThatStillResolve() {
        let files = ["Help/Internal links.md", "Help/Index.md", "Other.md"]
        let body = "See [[internal links]], [[internal links#Heading|x]] and ![[internal links]]."
        let before = LinkTargets(paths: files)
        var after = before
        after.remove("Help/Internal links.md"); after.add("Guide/Internal links.md")
        let out = LinkRewriter.rewrite(text: body, links: MarkdownScan(body: body).links, notePath: "Help/Index.md",
                                       newNotePath: "Guide/Index.md", moves: [PathKey("Help/Internal links.md"): "Guide/Internal links.md"],
                                       before: before, after: after)
        #expect(out == nil)
    }

    @Test func aliasesAreNotTargets() {
        let t = LinkTargets(paths: ["Real name.md"])
        #expect(t.resolve("Nickname", from: "x.md") == nil)
    }

    @Test func renameKeepsWhatTheReaderSeesInEveryForm() {
        let files = ["Trips/Lisbon.md", "Inbox/Todo.md", "Trips/photo.jpg"]
        let text = """
            ---
            place: "[[Lisbon]]"
            ---
            [[Lisbon]] ![[Lisbon]] [[Lisbon#Food]] [[Lisbon|the city]] [x](../Trips/Lisbon.md)
            | a |
            | - |
            | [[Lisbon]] |
            """
        let before = LinkTargets(paths: files)
        var after = before
        after.remove("Trips/Lisbon.md"); after.add("Trips/Lisboa.md")
        var document = NoteDocument(text: text)
        let note = Note(path: "Inbox/Todo.md", bytes: Array(text.utf8))
        #expect(LinkRewriter.rewrite(&document, links: note.links, notePath: "Inbox/Todo.md", newNotePath: "Inbox/Todo.md",
                                     moves: [PathKey("Trips/Lisbon.md"): "Trips/Lisboa.md"], before: before, after: after))
        #expect(document.rendered == """
            ---
            place: "[[Lisboa|Lisbon]]"
            ---
            [[Lisboa|Lisbon]] ![[Lisboa]] [[Lisboa#Food|Lisbon > Food]] [[Lisboa|the city]] [x](../Trips/Lisboa.md)
            | a |
            | - |
            | [[Lisboa\\|Lisbon]] |
            """)
        // And back: every byte as it was.
        var back = document
        let moved = Note(path: "Inbox/Todo.md", bytes: Array(document.rendered.utf8))
        #expect(LinkRewriter.rewrite(&back, links: moved.links, notePath: "Inbox/Todo.md", newNotePath: "Inbox/Todo.md",
                                     moves: [PathKey("Trips/Lisboa.md"): "Trips/Lisbon.md"], before: after, after: before))
        #expect(back.rendered == text)
    }

    @Test func aMoveThatMakesANameAmbiguousKeepsOtherLinksOnTheirFile() {
        // Moving C/Target.md under A/ would take `[[Target]]` in A/Source.md away from Z/Target.md.
        let files = ["Z/Target.md", "C/Target.md", "A/Source.md"]
        let body = "[[Target]]"
        let before = LinkTargets(paths: files)
        #expect(before.resolve("Target", from: "A/Source.md") == "C/Target.md")
        var after = before
        after.remove("Z/Target.md"); after.add("A/B/Target.md")
        let out = LinkRewriter.rewrite(text: body, links: MarkdownScan(body: body).links, notePath: "A/Source.md", newNotePath: "A/Source.md",
                                       moves: [PathKey("Z/Target.md"): "A/B/Target.md"], before: before, after: after)
        #expect(out == "[[C/Target|Target]]")
    }
}
