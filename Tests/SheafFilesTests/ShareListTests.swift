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
        not json
        {"path":"Inbox/Ideas.md","remote":"git@host:ideas.git"}
        """
        let list = ShareList(text: text)
        #expect(list.shares.map(\.path) == ["Trips", "Inbox/Ideas.md"])
        #expect(list.problems.count == 7)
        #expect(list.share(holding: "Trips/Lisbon/Budget.md")?.path == "Trips")
        #expect(list.share(holding: "Tripsx/a.md") == nil)
        #expect(list.share(holding: "Inbox/Gift ideas.md") == nil)
        #expect(ShareList(text: list.text).shares == list.shares, "written and read back alike")
        let odd = Share(path: "Ti\"tle é", remote: "r\\x")
        #expect(ShareList(text: ShareList(shares: [odd]).text).shares == [odd])
    }
}
