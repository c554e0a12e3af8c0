import Testing
@testable import SheafCore

@Suite struct LinkRewriterTests {
    let files = ["Trips/Lisbon.md", "Trips/tram 28.png", "Inbox/Todo.md", "Notes/Other.md", "Notes/Deep/Page.md"]

    func rewrite(_ body: String, in note: String, moving from: String, to: String, noteMovesTo: String? = nil) -> String? {
        let before = LinkTargets(paths: files)
        var after = before
        after.remove(from)
        after.add(to)
        return LinkRewriter.rewrite(text: body, links: MarkdownScan(body: body).links, notePath: note,
                                    newNotePath: noteMovesTo ?? note, moves: [PathKey(from): to], before: before, after: after)
    }

    @Test func renameRewritesBareWikiLinksKeepingLabelAndHeading() {
        let out = rewrite("a [[Lisbon]] b [[lisbon|the city]] c [[Lisbon#Food]] d [[Todo]]", in: "Inbox/Todo.md",
                          moving: "Trips/Lisbon.md", to: "Trips/Lisboa.md")
        #expect(out == "a [[Lisboa|Lisbon]] b [[Lisboa|the city]] c [[Lisboa#Food|Lisbon > Food]] d [[Todo]]")
    }

    @Test func folderMoveKeepsAUniqueBareNameAndRewritesPaths() {
        #expect(rewrite("[[Lisbon]]", in: "Inbox/Todo.md", moving: "Trips/Lisbon.md", to: "Travel/Lisbon.md") == nil)
        #expect(rewrite("[[Trips/Lisbon]] [[Trips/Lisbon.md]]", in: "Inbox/Todo.md", moving: "Trips/Lisbon.md", to: "Travel/Lisbon.md")
                == "[[Travel/Lisbon|Trips/Lisbon]] [[Travel/Lisbon.md|Trips/Lisbon.md]]")
    }

    @Test func bareNameThatWouldBecomeAmbiguousGetsAPath() {
        #expect(rewrite("[[Lisbon]]", in: "Inbox/Todo.md", moving: "Trips/Lisbon.md", to: "Notes/Other 2.md") == "[[Other 2|Lisbon]]")
        // Candidates under the linking note's folder come first, so the bare name still reaches it.
        #expect(rewrite("[[Lisbon]]", in: "Inbox/Todo.md", moving: "Trips/Lisbon.md", to: "Inbox/Other.md") == "[[Other|Lisbon]]")
        #expect(rewrite("[[Lisbon]]", in: "Notes/Todo.md", moving: "Trips/Lisbon.md", to: "Inbox/Other.md") == "[[Inbox/Other|Lisbon]]")
    }

    @Test func markdownLinksGetNewRelativePathsInTheirEncoding() {
        let body = "[a](../Trips/Lisbon.md) [b](<../Trips/Lisbon.md>) [c](../Trips/Lisbon.md#food) [web](https://x.org/Lisbon.md)"
        let out = rewrite(body, in: "Inbox/Todo.md", moving: "Trips/Lisbon.md", to: "Trips/Old town/Lisboa.md")
        #expect(out == "[a](../Trips/Old%20town/Lisboa.md) [b](<../Trips/Old town/Lisboa.md>) [c](../Trips/Old%20town/Lisboa.md#food) [web](https://x.org/Lisbon.md)")
    }

    @Test func movedNoteKeepsItsOwnRelativeLinksWorking() {
        let body = "![tram](tram%2028.png) [todo](../Inbox/Todo.md) [[Other]]"
        let out = rewrite(body, in: "Trips/Lisbon.md", moving: "Trips/Lisbon.md", to: "Notes/Deep/Lisbon.md", noteMovesTo: "Notes/Deep/Lisbon.md")
        // `tram 28.png` is found by name from anywhere: only the `../` link must change.
        #expect(out == "![tram](tram%2028.png) [todo](../../Inbox/Todo.md) [[Other]]")
    }

    @Test func attachmentsResolveByFileName() {
        let targets = LinkTargets(paths: files)
        #expect(targets.resolve("tram 28.png", from: "Inbox/Todo.md") == "Trips/tram 28.png")
        #expect(targets.resolve("Deep/Page", from: "x.md") == "Notes/Deep/Page.md")
        #expect(targets.resolve("Missing", from: "x.md") == nil)
    }
}
