// Sync against real servers on 127.0.0.1, each started and stopped by its test: `git daemon`
// (git://) and OpenSSH's sshd (ssh://, with host and user keys generated here and a temporary
// HOME holding known_hosts).
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A server process that is stopped when the value goes away.
final class ServerProcess {
    let pid: pid_t
    let port: Int

    init?(_ executable: String, _ arguments: [String], port: Int) {
        self.port = port
        guard let pid = Spawn.start(executable, arguments, in: "/", environment: ["PATH": "/usr/bin:/bin"]) else { return nil }
        self.pid = pid
        // Wait until it accepts connections (at most 10 s).
        for _ in 0..<200 {
            if Self.accepts(port) { return }
            usleep(50_000)
        }
        stop()
        return nil
    }

    deinit { stop() }

    func stop() {
        kill(pid, SIGKILL)
        _ = Spawn.wait(pid)
    }

    /// A port nothing listens on right now.
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                _ = bind(fd, raw, length)
                _ = getsockname(fd, raw, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

@Suite(.serialized) struct ServerTests {
    static let gitDaemon = "/usr/lib/git-core/git-daemon"
    static let sshd = "/usr/sbin/sshd"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: gitDaemon),
                   "git-daemon is missing: scripts/setup installs git"))
    func syncThroughGitDaemon() throws {
        let r = Replicas(1, samples: false)
        let port = ServerProcess.freePort()
        let daemon = try #require(ServerProcess(Self.gitDaemon, [
            "--reuseaddr", "--export-all", "--enable=receive-pack", "--base-path=\(r.temp.path)",
            "--listen=127.0.0.1", "--port=\(port)", r.temp.path], port: port))
        let url = "git://127.0.0.1:\(port)/remote.git"
        CLI.run(["remote", "remove", "origin"], in: r[0])
        CLI.run(["remote", "add", "origin", url], in: r[0])
        r.write(0, "Start.md", "# Start\n\nfirst line\nfrom r0 over git://\n")
        let pushed = r.sync(0)
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let clone = r.temp.path + "/over-daemon"
        let cloned = CLI.run(["clone", url, clone], in: r.temp.path)
        #expect(cloned.status == 0, "\(cloned.stderr)")
        #expect(CLI.read(clone + "/Start.md").contains("from r0 over git://"))
        withExtendedLifetime(daemon) {}
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: sshd),
                   "sshd is missing: scripts/setup installs openssh-server"))
    func syncOverSSHChecksTheHostKey() throws {
        let r = Replicas(1, samples: false)
        let dir = r.temp.path + "/ssh"
        let home = r[0]  // CLI.run sets HOME to the working folder
        try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        let keygen = { (path: String) in
            CLI.runProcess("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", path], in: dir)
        }
        keygen(dir + "/host_key")
        keygen(home + "/.ssh/id_ed25519")
        try FileManager.default.copyItem(atPath: home + "/.ssh/id_ed25519.pub", toPath: dir + "/authorized_keys")
        let port = ServerProcess.freePort()
        CLI.write("""
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(dir)/host_key
            PidFile \(dir)/sshd.pid
            AuthorizedKeysFile \(dir)/authorized_keys
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            PubkeyAuthentication yes
            StrictModes no
            UsePAM no
            PermitRootLogin prohibit-password

            """, to: dir + "/sshd_config")
        let user = String(cString: getpwuid(getuid())!.pointee.pw_name)
        let url = "ssh://\(user)@127.0.0.1:\(port)\(r.bare)"
        CLI.run(["remote", "remove", "origin"], in: r[0])
        CLI.run(["remote", "add", "origin", url], in: r[0])
        r.write(0, "Start.md", "# Start\n\nover ssh\n")

        var server: ServerProcess? = try #require(ServerProcess(Self.sshd, ["-D", "-e", "-f", dir + "/sshd_config"], port: port))
        let unknown = r.sync(0)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("not in ~/.ssh/known_hosts"))
        let accepted = r.sync(0, ["--accept-new-host"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(CLI.read(home + "/.ssh/known_hosts").hasPrefix("[127.0.0.1]:\(port) ssh-ed25519 "))
        #expect(Replicas.git(["--git-dir", r.bare, "show", "main:Start.md"], in: r.temp.path).stdout.contains("over ssh"))

        // The server comes back with another host key: refused, even with --accept-new-host.
        server = nil
        try FileManager.default.removeItem(atPath: dir + "/host_key")
        try FileManager.default.removeItem(atPath: dir + "/host_key.pub")
        keygen(dir + "/host_key")
        server = try #require(ServerProcess(Self.sshd, ["-D", "-e", "-f", dir + "/sshd_config"], port: port))
        r.write(0, "Start.md", "# Start\n\nover ssh, again\n")
        let changed = r.sync(0, ["--accept-new-host"])
        #expect(changed.status == 2)
        #expect(changed.stderr.contains("host key has CHANGED"))
        #expect(!Replicas.git(["--git-dir", r.bare, "show", "main:Start.md"], in: r.temp.path).stdout.contains("again"))
        withExtendedLifetime(server) {}
    }
}
