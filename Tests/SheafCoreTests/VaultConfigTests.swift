// `.sheaf/config.toml` read as TOML and changed line by line.
import Testing
@testable import SheafCore

@Suite struct VaultConfigTests {
    /// Issue 14: the hand-made reader read `device = "laptop"  # my machine` as a device named
    /// `"laptop"  # my machine`, which went into commit messages and conflict-file names.
    @Test func aCommentAfterTheDeviceIsNotPartOfItsName() {
        let config = VaultConfig(text: "# settings of this laptop\ndevice = \"laptop\"  # my machine\nremote = 'origin' # literal\n")
        #expect(config.problem == nil)
        #expect(config.device == "laptop")
        #expect(config["remote"] == "origin")
    }

    @Test func escapesAndUnquotedValuesAreReadAsTOMLReadsThem() {
        #expect(VaultConfig(text: "device = \"a \\\"b\\\" \\u00e9\"\n").device == "a \"b\" é")
        // Not TOML: reported, and the defaults are used instead of a wrong name.
        let broken = VaultConfig(text: "device = laptop # no quotes\n")
        #expect(broken.problem?.contains("line 1") == true)
        #expect(broken["device"] == nil)
        #expect(VaultConfig(text: "device = 5\n")["device"] == nil)
    }

    @Test func settingAKeyRewritesOnlyItsLineAndKeepsItsComment() throws {
        var config = VaultConfig(text: "# mine\ndevice = \"old\"   # this machine\n\n[later]\nx = 1\n")
        try config.set("device", "new \"one\"")
        #expect(config.text == "# mine\ndevice = \"new \\\"one\\\"\"   # this machine\n\n[later]\nx = 1\n")
        try config.set("remote", "backup")
        #expect(config.text.hasSuffix("remote = \"backup\"\n[later]\nx = 1\n"))
        #expect(VaultConfig(text: config.text).device == "new \"one\"")
        #expect(VaultConfig(text: config.text)["remote"] == "backup")
    }

    /// The shared escaper (YAML's double quotes) writes only escapes TOML reads the same way.
    @Test func controlCharactersAndQuotesRoundTrip() throws {
        var config = VaultConfig(text: "")
        let odd = "a\u{1}b\u{7F}\t\"c\\ é\n"
        try config.set("device", odd)
        #expect(VaultConfig(text: config.text).device == odd)
    }

    @Test func aBrokenFileIsNotRewritten() {
        var config = VaultConfig(text: "device = [\n")
        #expect(throws: SheafError.self) { try config.set("device", "x") }
        #expect(config.text == "device = [\n")
    }
}
