// `sheaf serve`'s web server (Hummingbird, NIO, TLS) lives in `sheaf-serve`, not in `sheaf`: linked
// into `sheaf`, it was mapped and its conformance records scanned at the start of every command.
// Checked on the executables' own bytes (statically linked code is what the process maps), and on
// what a user and an editor see: `sheaf serve` keeps its pid through the hand-over (the pid that
// was started serves and dies by kill -9), and a missing `sheaf-serve` is named with exit code 2.
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite struct ServeExecutableTests {
    static let server = (CLI.binary as NSString).deletingLastPathComponent + "/sheaf-serve"

    /// Whether the file at `path` holds the bytes of `needle` (mapped; memchr finds each
    /// candidate start, memcmp checks it).
    static func holds(_ path: String, _ needle: String) -> Bool {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0 else { return false }
        let size = Int(info.st_size)
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return false }
        defer { munmap(base, size) }
        let wanted = Array(needle.utf8)
        var offset = 0
        while offset + wanted.count <= size,
              let hit = memchr(base + offset, Int32(wanted[0]), size - offset - wanted.count + 1) {
            if memcmp(hit, wanted, wanted.count) == 0 { return true }
            offset = base.distance(to: hit) + 1
        }
        return false
    }

    /// The mangled module names of the web server's libraries: every type, function and
    /// conformance of theirs carries one, stripped binary or not.
    static let serverModules = ["11Hummingbird", "7NIOCore", "8NIOPosix", "6NIOSSL"]

    @Test func everyCommandStartedWithTheWebServerLinkedIntoSheaf() {
        for module in Self.serverModules {
            #expect(!Self.holds(CLI.binary, module), "sheaf holds \(module)")
            // The check sees the modules where they are linked.
            #expect(Self.holds(Self.server, module), "sheaf-serve lacks \(module)")
        }
    }

    /// The pid the caller started becomes the server: it prints the address, accepts connections,
    /// is the `sheaf-serve` executable, and kill -9 of that pid ends the server.
    @Test func serveKeepsItsPidThroughSheafServe() throws {
        let temp = TempDir("serve-exec")
        let vault = CLI.sampleVault(temp)
        let out = temp.path + "/out", err = temp.path + "/err"
        let pid = try #require(Spawn.start(CLI.binary, ["serve", "--port", "0", "--no-sync"], in: vault,
                                           environment: cleanEnvironment(home: vault), stdout: out, stderr: err))
        var ended = false
        defer { if !ended { kill(pid, SIGKILL); _ = Spawn.wait(pid) } }
        var url = ""
        let printed = eventually(timeout: 30) {
            url = CLI.read(out).split(separator: "\n").first { $0.hasPrefix("Open http://127.0.0.1:") }.map(String.init) ?? ""
            return !url.isEmpty || Spawn.poll(pid) != nil
        }
        #expect(printed && !url.isEmpty, "\(CLI.read(err))")
        let port = Int(url.dropFirst("Open http://127.0.0.1:".count).prefix { $0.isNumber }) ?? 0
        #expect(Loopback.accepts(port))
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        #expect((exe as NSString).lastPathComponent == "sheaf-serve", "\(exe)")
        #expect(kill(pid, SIGKILL) == 0)
        #expect(Spawn.wait(pid) == 128 + SIGKILL)
        ended = true
        #expect(!Loopback.accepts(port))
    }

    /// `sheaf` installed without `sheaf-serve`: `serve` names it with exit code 2 and serves
    /// nothing; its help and option checks still answer (they are `sheaf`'s); with `sheaf-serve`
    /// on PATH (not beside this copy), the same copy hands over to it.
    @Test func serveWithoutSheafServeNamesItWithExitCode2() throws {
        let temp = TempDir("serve-missing")
        let vault = CLI.sampleVault(temp)
        let bin = temp.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        if link(CLI.binary, bin + "/sheaf") != 0 { try FileManager.default.copyItem(atPath: CLI.binary, toPath: bin + "/sheaf") }
        let lonely = bin + "/sheaf"

        // A deadline: a `sheaf` that served by itself would not end.
        let missing = runProcess(lonely, ["serve", "--port", "0"], in: vault, deadline: 30)
        #expect(missing.status == 2 && missing.stdout.isEmpty)
        #expect(missing.stderr.hasPrefix("sheaf: cannot find `sheaf-serve`: \(bin)\n")
                && missing.stderr.contains("scripts/install"), "\(missing.stderr)")
        let help = runProcess(lonely, ["serve", "--help"], in: vault)
        #expect(help.status == 0 && help.stdout.contains("--tls-cert"), "\(help.stderr)")
        let bad = runProcess(lonely, ["serve", "--port", "70000"], in: vault)
        #expect(bad.status == 2 && bad.stderr.contains("--port must be between 0 and 65535"), "\(bad.stderr)")

        // Found on PATH: the refusal to listen beyond this machine without TLS is the server's own.
        let serverFolder = (Self.server as NSString).deletingLastPathComponent
        let found = runProcess(lonely, ["serve", "--port", "0", "--listen", "0.0.0.0"], in: vault,
                               environment: ["PATH": "/usr/bin:/bin:" + serverFolder])
        #expect(found.status == 2 && found.stderr.contains("will not listen beyond this machine without TLS"), "\(found.stderr)")
    }
}
