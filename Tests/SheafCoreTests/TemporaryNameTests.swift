// Where Sheaf's temporary files go: beside the file they replace, whatever shape its path has.
import SheafCore
import Testing

@Suite struct TemporaryNameTests {
    /// Regression: a bare relative name (`out.md`, git's `.merge_file_XXXXXX`) got a temporary
    /// file in the file system's root (`/.sheaf-tmp-...`): refused for a user who cannot write
    /// there, across devices on a rename; a one-letter name crashed Foundation's path code.
    @Test func aBareNameGetsItsTemporaryFileInTheWorkingFolder() {
        #expect(TemporaryName.beside("out.md").hasPrefix("./.sheaf-tmp-"))
        #expect(TemporaryName.beside("x").hasPrefix("./.sheaf-tmp-"))
        #expect(TemporaryName.beside("notes/x.md").hasPrefix("notes/.sheaf-tmp-"))
        #expect(TemporaryName.beside("/x.md").hasPrefix("/.sheaf-tmp-"))
        #expect(TemporaryName.beside("/vault/a b/x.md").hasPrefix("/vault/a b/.sheaf-tmp-"))
        #expect(VaultFileWriter.temporaryName(beside: "out.md").hasPrefix("./.sheaf-tmp-"))
        #expect(TemporaryName.beside("x") != TemporaryName.beside("x"))
    }
}
