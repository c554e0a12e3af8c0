// Where Sheaf's temporary files go: beside the file they replace, whatever shape its path has.
import Foundation
import SheafCore
import SheafFiles
import TestSupport
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

    /// A temporary file is an orphan only when its maker is gone: its pid runs no process, or a
    /// process that started at another time (a pid used again), or, in names without the start
    /// time, one that started after the file last changed. Live makers' files are never orphans.
    @Test func anOrphanIsTheFileOfAProcessThatIsGone() throws {
        let temp = TempDir()
        let own = VaultPath.fileName(TemporaryName.beside("x"))
        let maker = try #require(TemporaryName.maker(of: own))
        #expect(maker.pid == getpid() && maker.startTicks != nil && !maker.scratch)
        #expect(TemporaryName.maker(of: VaultPath.fileName(TemporaryName.beside("x", scratch: true)))?.scratch == true)
        #expect(TemporaryName.maker(of: ".sheaf-tmp-12-34") == TemporaryName.Maker(pid: 12, startTicks: nil, scratch: false))
        #expect(TemporaryName.maker(of: ".sheaf-tmp-x") == nil && TemporaryName.maker(of: "note.md") == nil)

        let file = temp.path + "/f"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        #expect(!TemporaryName.isOrphan(file, maker: maker))
        let reused = TemporaryName.Maker(pid: getpid(), startTicks: maker.startTicks! + 1, scratch: false)
        #expect(TemporaryName.isOrphan(file, maker: reused))
        let ended = Spawn.start("/bin/true", [], in: temp.path, environment: [:])!
        _ = Spawn.wait(ended)
        #expect(TemporaryName.isOrphan(file, maker: TemporaryName.Maker(pid: ended, startTicks: nil, scratch: false)))
        // An old name (no start time) whose pid now runs a process that started after the file
        // last changed: made by an earlier holder of the pid.
        let oldName = TemporaryName.Maker(pid: getpid(), startTicks: nil, scratch: false)
        #expect(!TemporaryName.isOrphan(file, maker: oldName))
        // Changed a second after the boot (so not before it): long before this process started.
        let stat = try String(contentsOfFile: "/proc/stat", encoding: .utf8)
        let boot = try #require(stat.split(separator: "\n").first { $0.hasPrefix("btime ") }.flatMap { Int($0.dropFirst(6)) })
        var times = [timespec(tv_sec: boot + 1, tv_nsec: 0), timespec(tv_sec: boot + 1, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
        #expect(TemporaryName.isOrphan(file, maker: oldName))
    }
}
