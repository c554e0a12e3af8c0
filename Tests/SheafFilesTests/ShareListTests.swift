// `.sheaf-shares` comes from the vault's remote like any synced content: each line is checked.
import SheafCore
import SheafFiles
import Testing

@Suite struct ShareListTests {
    @Test func aShareListFromARemoteIsCheckedLineByLine() {
        let text = """
        # comment
        {"path":"Trips","remote":"https://host/trips.git"}
        {"path":"Trips/Lisbon","remote":"https://host/inner.git"}
        {"path":"../outside","remote":"https://host/x.git"}
        {"path":".git/hooks","remote":"https://host/x.git"}
        {"path":"","remote":"https://host/x.git"}
        {"path":"Work","remote":"https://user:secret@host/x.git"}
        {"path":"Recipes","remote":"--upload-pack=touch PWNED"}
        {"path":"Recipes2","remote":"-\\u0301oProxyCommand=touch PWNED"}
        {"path":"Work2","remote":"https://user:\\u0301secret@\\u0301host/x.git"}
        not json
        {"path":"Inbox/Ideas.md","remote":"git@host:ideas.git"}
        """
        let list = ShareList(text: text)
        #expect(list.shares.map(\.path) == ["Trips", "Inbox/Ideas.md"])
        #expect(list.problems.count == 9)  // a combining mark after `-`, `:` or `@` hides nothing
        #expect(list.share(holding: "Trips/Lisbon/Budget.md")?.path == "Trips")
        #expect(list.share(holding: "Tripsx/a.md") == nil)
        #expect(list.share(holding: "Inbox/Gift ideas.md") == nil)
        #expect(ShareList(text: list.text).shares == list.shares, "written and read back alike")
        let odd = Share(path: "Ti\"tle é", remote: "r\\x")
        #expect(ShareList(text: ShareList(shares: [odd]).text).shares == [odd])
    }

    /// Swift's `==` takes an NFC name and its NFD twin for one: a share of `Café.md` held the
    /// other file too (two files on Linux), which then left the vault for the share.
    @Test func aShareHoldsItsOwnBytesNotAnNFDTwin() {
        let nfc = "Notes/Caf\u{E9}.md", nfd = "Notes/Cafe\u{301}.md"
        let note = Share(path: nfc, remote: "r")
        #expect(note.holds(nfc) && !note.holds(nfd))
        #expect(note.admits(shareRelative: "Caf\u{E9}.md") && !note.admits(shareRelative: "Cafe\u{301}.md"))
        let folder = Share(path: "Caf\u{E9}", remote: "r")
        #expect(folder.holds("Caf\u{E9}/a.md") && !folder.holds("Cafe\u{301}/a.md"))
        #expect(folder.relative("Caf\u{E9}/sub/a.md") == "sub/a.md")
        var list = ShareList(shares: [folder])
        #expect(list.add(Share(path: "Cafe\u{301}", remote: "r")) == nil, "the twin folder is another folder")
    }
}
