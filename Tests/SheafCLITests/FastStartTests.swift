// Commands that make no thumbnails never load libvips: only `sheaf-thumbnailer` links it, and
// `sheaf` runs it when thumbnails are due. Checked on the libraries the dynamic loader really
// loads (LD_DEBUG=libs names each one it looks up, dlopen included), and on what happens when the
// helper is not installed.
import Foundation
import MediaFixtures
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite struct FastStartTests {
    /// The libraries a run of `executable` made the dynamic loader look up (from LD_DEBUG=libs).
    static func loadedLibraries(_ executable: String, _ arguments: [String], in directory: String) -> [String] {
        let r = runProcess(executable, arguments, in: directory, environment: ["LD_DEBUG": "libs"])
        return r.stderr.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "find library=") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != " " && $0 != "[" })
        }
    }

    static let helper = (CLI.binary as NSString).deletingLastPathComponent + "/sheaf-thumbnailer"

    /// libgit2 is bound lazily (CGit2Loader): `--version`, `merge-file` and a `search` whose walk
    /// meets no ignore rule never touch git and load neither it (nor its ~16 dependencies, nor the
    /// CA certificates its TLS library reads at start) nor libvips; a command that reads the
    /// repository loads libgit2 on its first call.
    @Test func sheafMapsNoLibvipsAndLoadsLibgit2OnlyWhenACommandUsesGit() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        #expect(CLI.run(["index"], in: vault).status == 0)
        let note = vault + "/merge.md"
        try "---\ntitle: M\n---\nline\n".write(toFile: note, atomically: true, encoding: .utf8)
        let ours = vault + "/ours.md"
        try "---\ntitle: M\n---\nline\nmore\n".write(toFile: ours, atomically: true, encoding: .utf8)
        for arguments in [["--version"], ["search", "lisbon"], ["merge-file", note, ours, note]] {
            let libraries = Self.loadedLibraries(CLI.binary, arguments, in: vault)
            // The check sees libraries at all: sheaf links the C library.
            #expect(libraries.contains { $0.hasPrefix("libc.so") }, "\(arguments): \(libraries)")
            #expect(!libraries.contains { $0.contains("vips") }, "\(arguments) loaded libvips: \(libraries)")
            #expect(!libraries.contains { $0.hasPrefix("libgit2") }, "\(arguments) loaded libgit2: \(libraries)")
        }
        // A command that reads the repository loads libgit2 when it first calls it (dlopen).
        let log = Self.loadedLibraries(CLI.binary, ["log"], in: vault)
        #expect(log.contains { $0.hasPrefix("libgit2") }, "\(log)")
        // ...and the same check does see libvips where it is loaded: in the helper.
        let helperLibraries = Self.loadedLibraries(Self.helper, [], in: vault)
        #expect(helperLibraries.contains { $0.hasPrefix("libvips") }, "\(helperLibraries)")
    }

    /// `sheaf --version` alone is answered before ArgumentParser builds its tree; what it prints
    /// is what ArgumentParser prints for `--version` with anything else on the line.
    @Test func versionAloneIsAnsweredAsArgumentParserAnswersIt() {
        let temp = TempDir()
        let alone = CLI.run(["--version"], in: temp.path)
        let parsed = CLI.run(["--version", "--no-pager"], in: temp.path)
        #expect(alone.status == 0 && parsed.status == 0, "\(alone.stderr)\(parsed.stderr)")
        #expect(alone.stdout == parsed.stdout)
        #expect(alone.stdout.range(of: #"^[0-9]+\.[0-9]+\.[0-9]+\n$"#, options: .regularExpression) != nil, "\(alone.stdout)")
        #expect(alone.stderr.isEmpty)
    }

    /// The walk reads the ignore rules from outside the work tree from their files and starts
    /// libgit2 only when a rule may apply (the test above: none does, none is loaded); the rules
    /// still hold, `info/exclude`'s and an excludes file set in a way only git's reader takes
    /// (a quoted value, which sends the walk to libgit2 for the rules too).
    @Test func ignoreRulesFromOutsideTheWorkTreeStillHoldWithoutLibgit2AtStart() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        for path in ["Inbox/skipped-locally.md", "Inbox/kept.md", "Inbox/quoted-out.md"] {
            CLI.write("# x\nzqxjlibgit\n", to: vault + "/" + path)
        }
        CLI.write(CLI.read(vault + "/.git/info/exclude") + "skipped-locally.md\n", to: vault + "/.git/info/exclude")
        #expect(CLI.run(["search", "--paths", "zqxjlibgit"], in: vault).stdout == "Inbox/kept.md\nInbox/quoted-out.md\n")
        CLI.write("quoted-out.md\n", to: vault + "/.config/excludes")
        CLI.write(CLI.read(vault + "/.git/config") + "[core]\n\texcludesFile = \"" + vault + "/.config/excludes\"\n", to: vault + "/.git/config")
        #expect(runProcess("/usr/bin/git", ["check-ignore", "-q", "Inbox/quoted-out.md"], in: vault).status == 0)
        #expect(CLI.run(["index", "--rebuild"], in: vault).status == 0)
        #expect(CLI.run(["search", "--paths", "zqxjlibgit"], in: vault).stdout == "Inbox/kept.md\n")
    }

    /// `sheaf` installed without `sheaf-thumbnailer` (not beside it, not on PATH): commands that
    /// make thumbnails say so once, name the helper, and leave the attachments pending, so the
    /// next run with the helper installed makes them. Nothing crashes, nothing is marked failed.
    @Test func missingThumbnailHelperSkipsThumbnailsWithAWarningNamingIt() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let bin = temp.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        if link(CLI.binary, bin + "/sheaf") != 0 { try FileManager.default.copyItem(atPath: CLI.binary, toPath: bin + "/sheaf") }
        let lonely = bin + "/sheaf"

        let index = runProcess(lonely, ["index"], in: vault)
        #expect(index.status == 0, "\(index.stderr)")
        #expect(index.stderr.contains("left without a thumbnail") && index.stderr.contains("`sheaf-thumbnailer`")
                && index.stderr.contains("scripts/install"), "\(index.stderr)")
        let thumb = runProcess(lonely, ["thumb", "Trips/Lisbon/tram-28.png"], in: vault)
        #expect(thumb.status == 2 && thumb.stderr.contains("cannot find the thumbnail helper `sheaf-thumbnailer`"), "\(thumb.stderr)")
        let listing = runProcess(lonely, ["attachments", "--json"], in: vault)
        #expect(listing.stdout.contains("\"pending\"") && !listing.stdout.contains("\"failed\""), "\(listing.stdout)")

        // With the helper on PATH (not beside this copy of sheaf), the same copy makes them.
        let helperFolder = (Self.helper as NSString).deletingLastPathComponent
        let found = runProcess(lonely, ["thumb", "Trips/Lisbon/tram-28.png"], in: vault,
                               environment: ["PATH": "/usr/bin:/bin:" + helperFolder])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(FileManager.default.fileExists(atPath: found.stdout.trimmingCharacters(in: .newlines)))
    }

    /// One helper makes a whole batch, and its results land in the index: every sample image gets
    /// a thumbnail from one `sheaf index`, with their sizes recorded.
    @Test func oneIndexRunThumbnailsEveryAttachmentThroughTheHelper() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        try FileManager.default.copyItem(atPath: Fixtures.path("photo.jpg"), toPath: vault + "/Inbox/photo.jpg")
        try FileManager.default.copyItem(atPath: Fixtures.path("paper.pdf"), toPath: vault + "/Inbox/paper.pdf")
        let r = CLI.run(["index"], in: vault)
        #expect(r.status == 0 && r.stdout.contains("0 failed"), "\(r.stdout)\(r.stderr)")
        struct Listing: Decodable {
            struct Item: Decodable { let path: String, thumbnailState: String, width: Int? }
            let attachments: [Item]
        }
        let listing = try JSONDecoder().decode(Listing.self, from: Data(CLI.run(["attachments", "--json"], in: vault).stdout.utf8))
        let images = listing.attachments.filter { !$0.path.hasSuffix(".json") }
        #expect(images.count >= 7 && images.allSatisfy { $0.thumbnailState == "ready" && ($0.width ?? 0) > 0 }, "\(images)")
    }
}
