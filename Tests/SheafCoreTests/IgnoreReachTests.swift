import SheafCore
import Testing

@Suite struct IgnoreReachTests {
    @Test func literalNamesAreAskedAboutAndNothingElse() {
        let reach = IgnoreReach(rules: "# comment\n\nPackage.resolved\n/build/\nlogs/today.md\n")
        #expect(reach.names == ["package.resolved", "build", "today.md"])
        #expect(!reach.anyFile && !reach.anyFolder)
        #expect(reach.mightIgnore(name: "Package.resolved", isFolder: false))
        #expect(reach.mightIgnore(name: "BUILD", isFolder: true))
        #expect(!reach.mightIgnore(name: "notes.md", isFolder: false))
    }

    @Test func globsReachEveryNameOfTheirKind() {
        let files = IgnoreReach(rules: "*.tmp\n")
        #expect(files.anyFile && files.anyFolder)
        let folders = IgnoreReach(rules: "build-*/\r\n")
        #expect(!folders.anyFile && folders.anyFolder)
        #expect(folders.mightIgnore(name: "anything", isFolder: true))
        #expect(!folders.mightIgnore(name: "anything", isFolder: false))
        #expect(IgnoreReach(rules: "a\\ b\n").anyFile, "escapes are read as globs: ask")
    }

    /// Sheaf's own exclude lines only reach dot-names, which the walk never enters.
    @Test func dotNamesAndNegationsReachNothing() {
        let reach = IgnoreReach(rules: ".sheaf/\n.obsidian/workspace*.json\n.DS_Store\n**/.trash/\n!keep.md\n")
        #expect(reach == IgnoreReach())
    }

    @Test func mergingKeepsBoth() {
        let merged = IgnoreReach(rules: "a.md\n").merging(IgnoreReach(rules: "*.log\n"))
        #expect(merged.names == ["a.md"] && merged.anyFile)
    }
}
