// The walk lists folders on several threads. What it returns must be what the one-thread walk
// returned, in the same order: the scanner and `mv` take the unsorted list as it comes, and
// warnings are shown in the order they come. Each test walks with one thread, with threads from
// the first folder on, and as a command would (threads once enough folders wait).
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SheafCore
@testable import SheafFiles
import TestSupport
import Testing

@Suite struct ParallelWalkTests {
    /// Hundreds of nested folders: every file once, each folder's files in readdir order and
    /// then each subfolder's tree, as the one-thread walk (written out again here) met them.
    @Test func nestedFoldersComeInTheOneThreadWalksOrder() {
        let temp = TempDir("walk")
        TestFile.write("top", to: temp.path + "/top.md")
        for a in 0..<12 {
            for b in 0..<4 {
                for c in 0..<3 {
                    for n in 0..<3 { TestFile.write("x", to: temp.path + "/a\(a)/b\(b)/c\(c)/n\(n).md") }
                }
                TestFile.write("y", to: temp.path + "/a\(a)/b\(b)/page.md")
            }
        }
        let expected = Self.readdirOrder(temp.path)
        #expect(expected.count == 1 + 12 * 4 * (3 * 3 + 1))
        for walker in Self.walkers(Vault(root: temp.path)) {
            let (files, warnings) = walker.files(sorted: false)
            #expect(files.map(\.path) == expected)
            #expect(warnings.isEmpty)
            #expect(walker.files(sorted: true).files.map(\.path) == expected.sorted { PathBytes.precedes($0, $1) })
            #expect(walker.files(under: "a3").map(\.path) == expected.filter { $0.hasPrefix("a3/") })
        }
    }

    /// Symlinks into and out of the vault, a name that is not UTF-8, a folder the walk cannot
    /// open, a folder .gitignore ignores, Obsidian's excluded files and Sheaf's temporary files,
    /// among enough folders to take threads: the same files, warnings and temporary files in the
    /// same order on any number of threads; `isIgnored` and `excludes` never asked twice at once,
    /// and the temporary files told on the calling thread.
    @Test func oddEntriesGiveTheSameFilesAndWarningsOnAnyNumberOfThreads() throws {
        let temp = TempDir("walk")
        let outside = TempDir("walk-outside")
        let root = temp.path
        TestFile.write("outside", to: outside.path + "/secret.md")
        for f in 0..<30 {
            TestFile.write("n", to: root + "/f\(f)/note.md")
            TestFile.write("skip", to: root + "/f\(f)/sub/skip.md")
            TestFile.write("t", to: root + "/f\(f)/.sheaf-tmp-1-2")
        }
        TestFile.write("target", to: root + "/f1/target.md")
        #expect(symlink(root + "/f1/target.md", root + "/f2/in.md") == 0)
        #expect(symlink(root + "/f1", root + "/f3/linked") == 0)
        #expect(symlink(outside.path + "/secret.md", root + "/f4/out.md") == 0)
        #expect(symlink(root + "/f5/nothing.md", root + "/f5/dangling.md") == 0)
        ByteName.write("bad", name: Array("bad".utf8) + [0xFF] + Array(".md".utf8), in: root + "/f6")
        TestFile.write("build/\n", to: root + "/f7/.gitignore")
        TestFile.write("built", to: root + "/f7/build/out.md")
        let deep = try DeepFolders(in: root + "/f8")
        defer { deep.remove() }

        let vault = Vault(root: root)
        var results: [(files: [VaultFile], warnings: [VaultWarning], temporary: [String], asked: [String])] = []
        for var walker in Self.walkers(vault) {
            let asks = Asks()
            let caller = pthread_self()
            var temporary: [String] = []
            walker.isIgnored = { path, isFolder in asks.enter(path) { isFolder && path.hasSuffix("/build") } }
            walker.excludes = { path, _ in asks.enter(nil) { path.hasSuffix("/skip.md") } }
            walker.onTemporaryFile = { path in
                #expect(pthread_equal(pthread_self(), caller) != 0)
                temporary.append(path)
            }
            let (files, warnings) = walker.files(sorted: false)
            #expect(!asks.overlapped)
            results.append((files, warnings, temporary, asks.paths.sorted()))
        }
        let (files, warnings, temporary, asked) = results[0]
        for other in results.dropFirst() {
            #expect(other.files == files)
            #expect(other.warnings == warnings)
            #expect(other.temporary == temporary)
            #expect(other.asked == asked)
        }

        let paths = files.map(\.path)
        #expect(Set(paths).count == paths.count)
        #expect(Set(paths) == Set((0..<30).map { "f\($0)/note.md" } + ["f1/target.md", "f2/in.md"]))
        let target = try #require(files.first { $0.path == "f1/target.md" })
        #expect(files.first { $0.path == "f2/in.md" }?.inode == target.inode)  // read as its target
        #expect(asked == ["f7/build"])
        // In walk order: the order of the folders' notes.
        #expect(temporary == Self.readdirOrder(root).filter { $0.hasSuffix("/note.md") }.map { VaultPath.folder($0) + "/.sheaf-tmp-1-2" })
        let outsideMessage = "symlink leads outside the vault, or into .git, .sheaf or a hidden folder; skipped"
        #expect(Set(warnings.map(\.path)) == ["f4/out.md", "f6/bad\\xFF.md", deep.unreadable])
        #expect(warnings.count == 3)
        #expect(warnings.first { $0.path == "f4/out.md" }?.message == outsideMessage)
        #expect(warnings.first { $0.path == deep.unreadable }?.message == "cannot read folder: \(String(cString: strerror(ENAMETOOLONG)))")
    }

    /// With one thread, with threads from the first folder, and as configured for a command.
    static func walkers(_ vault: Vault) -> [VaultWalker] {
        var one = VaultWalker(vault: vault, outsideRules: IgnoreReach())
        one.threads = 1
        var eager = one
        eager.threads = 4
        eager.foldersBeforeThreads = 0
        return [one, eager, VaultWalker(vault: vault, outsideRules: IgnoreReach())]
    }

    /// The walk's order over plain files and folders: a folder's files (everything but folders)
    /// in readdir order, then each subfolder's, dot-names left out.
    static func readdirOrder(_ root: String, _ folder: String = "") -> [String] {
        guard let dir = opendir(folder.isEmpty ? root : root + "/" + folder) else { return [] }
        var found: [String] = []
        var subfolders: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
            guard !name.hasPrefix(".") else { continue }
            let path = folder.isEmpty ? name : folder + "/" + name
            var info = stat()
            guard lstat(root + "/" + path, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR { subfolders.append(path) } else { found.append(path) }
        }
        closedir(dir)
        return found + subfolders.flatMap { readdirOrder(root, $0) }
    }
}

/// What the walk asked, and whether two questions were ever asked at once.
private final class Asks {
    private let busy = NSLock()
    private(set) var paths: [String] = []
    private(set) var overlapped = false

    func enter(_ path: String?, _ answer: () -> Bool) -> Bool {
        guard busy.try() else { overlapped = true; return answer() }
        defer { busy.unlock() }
        if let path { paths.append(path) }
        return answer()
    }
}

/// Folders nested so deep that the absolute path of the deepest ones is longer than PATH_MAX:
/// opendir fails on them (ENAMETOOLONG) even for root, whom no permission keeps out. Made and
/// removed one level at a time through descriptors.
private struct DeepFolders {
    static let name = String(repeating: "d", count: 250)
    let top: String
    let levels: Int
    /// The vault path of the first folder the walk cannot open.
    let unreadable: String

    init(in folder: String) throws {
        top = folder
        levels = Int(PATH_MAX) / (Self.name.utf8.count + 1) + 2
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        for _ in 0..<levels {
            #expect(mkdirat(fd, Self.name, 0o755) == 0)
            let next = openat(fd, Self.name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            close(fd)
            fd = next
        }
        close(fd)
        let vaultFolder = VaultPath.fileName(folder)
        var path = vaultFolder
        while (VaultPath.folder(folder) + "/" + path).utf8.count < Int(PATH_MAX) { path += "/" + Self.name }
        unreadable = path
    }

    func remove() {
        var fds = [open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC)]
        for _ in 1..<levels { fds.append(openat(fds.last!, Self.name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) }
        for fd in fds.reversed() {
            unlinkat(fd, Self.name, AT_REMOVEDIR)
            close(fd)
        }
    }
}
