// The vault-path guard: every spelling of `.git` and `.sheaf`, traversal, names too long for a
// file system, bytes that are not UTF-8, and symlinked folders on the way are refused.
import Foundation
import Testing
import TestSupport
@testable import SheafCore
@testable import SheafFiles

@Suite struct VaultPathGuardTests {
    @Test func pathsIntoDotGitOrDotSheafOrOutsideAreRefused() {
        let refused: [String] = [
            ".git/hooks/post-commit", "a/.GIT/config", ".Git", ".git./config", ".git /config", "GIT~1/config",
            ".g\u{200C}it/config", "\u{FEFF}.git/config", ".sheaf/config.toml", "Notes/.SHEAF/index.sqlite", ".sheaf./lock",
            "../x.md", "a/../../x.md", "/etc/x", "a//b.md", "./a.md", "a/./b.md", "", "a/", "a\\b.md", "a\u{0}b",
            "tab\there.md", String(repeating: "n", count: 256) + ".md",
        ]
        for path in refused {
            #expect(VaultPathGuard.refusal(path) != nil, "\(path.debugDescription)")
        }
        #expect(VaultPathGuard.refusal(bytes: Array("ok".utf8) + [0xFF] + Array(".md".utf8)) == .notUTF8)
        let allowed = ["Trips/Lisbon/Budget.md", ".obsidian/app.json", "a.git/b.md", "git/x.md", ".gitignore",
                       "Notes/.github/x.md", "café.md", String(repeating: "n", count: 252) + ".md", "sheaf/x.md"]
        for path in allowed {
            #expect(VaultPathGuard.refusal(path) == nil, "\(path)")
        }
    }

    @Test func aFolderOnTheWayThatIsASymlinkIsRefused() throws {
        let root = TempDir.make("guard")
        let outside = TempDir.make("guard-outside")
        try FileManager.default.createDirectory(atPath: root + "/real", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root); try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: root + "/real/inner", withDestinationPath: root + "/real")
        #expect(throws: Never.self) { try VaultPathGuard.check("real/new/x.md", in: root).get() }
        #expect(VaultPathGuard.check("link/x.md", in: root) == .failure(.throughSymlink(folder: "link")))
        #expect(VaultPathGuard.check("real/inner/x.md", in: root) == .failure(.throughSymlink(folder: "real/inner")))
        #expect(throws: SheafError.self) { try VaultPathGuard.requireFolder("link", in: root) }
        #expect(throws: SheafError.self) { try VaultPathGuard.requireFolder("real/inner", in: root) }
    }

    /// A `/` followed by a combining mark is one Character with it, and the guard split paths
    /// into Characters: `../\u{301}x.md` held no `..` for it, and `link/\u{301}x.md` no folder.
    @Test func aSeparatorFollowedByACombiningMarkStillSeparates() throws {
        #expect(VaultPathGuard.refusal("../\u{301}escape.md") == .traversal)
        #expect(VaultPathGuard.refusal("../\u{301}dir/x.md") == .traversal)
        #expect(VaultPathGuard.refusal(".git/\u{301}x") == .gitFolder)
        #expect(VaultPathGuard.refusal("Notes/\u{301}x.md") == nil)
        let root = TempDir.make("guard-marks")
        let outside = TempDir.make("guard-marks-outside")
        defer { try? FileManager.default.removeItem(atPath: root); try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: outside)
        #expect(VaultPathGuard.check("link/\u{301}x.md", in: root) == .failure(.throughSymlink(folder: "link")))
        #expect(VaultPath.normalize("a/\u{301}b/../c") == "a/c")
        #expect(!VaultPathGuard.isReadableTarget(root + "/.git/\u{301}x", realRoot: root))
    }

    @Test func aSymlinkTargetIsReadableOnlyInsideTheVaultOutOfHiddenFolders() {
        #expect(VaultPathGuard.isReadableTarget("/v/Notes/a.md", realRoot: "/v"))
        #expect(!VaultPathGuard.isReadableTarget("/v/.git/config", realRoot: "/v"))
        #expect(!VaultPathGuard.isReadableTarget("/v/.sheaf/config.toml", realRoot: "/v"))
        #expect(!VaultPathGuard.isReadableTarget("/v/.obsidian/app.json", realRoot: "/v"))
        #expect(!VaultPathGuard.isReadableTarget("/vault2/a.md", realRoot: "/v"))
        #expect(!VaultPathGuard.isReadableTarget("/etc/passwd", realRoot: "/v"))
    }

    @Test func conflictFileNamesFitTheFileSystem() {
        let long = String(repeating: "é", count: 115) + ".md"  // 230 bytes of name
        let name = VaultPath.fittedName(stem: VaultPath.stem(long), suffix: ".conflict-20261121-101500-laptop", ext: "md")
        #expect(name.utf8.count <= 255)
        #expect(name.hasSuffix(".conflict-20261121-101500-laptop.md"))
        #expect(String(validating: Array(name.utf8), as: UTF8.self) != nil)
    }
}
