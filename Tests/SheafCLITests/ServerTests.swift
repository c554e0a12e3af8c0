// Sync against real servers on 127.0.0.1, each started and stopped by its test: `git daemon`
// (git://) and OpenSSH's sshd (ssh://, with host and user keys generated here and a temporary
// HOME holding known_hosts).
import Foundation
import Testing
import TestSupport
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
            if Loopback.accepts(port) { return }
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
}

@Suite(.serialized) struct ServerTests {
    static let gitDaemon = "/usr/lib/git-core/git-daemon"
    static let sshd = "/usr/sbin/sshd"

    /// A `git daemon` on 127.0.0.1 serving the replicas' bare repository, made replica 0's origin.
    static func gitDaemon(for r: Replicas) throws -> (ServerProcess, String) {
        let port = Loopback.freePort()
        let daemon = try #require(ServerProcess(gitDaemon, [
            "--reuseaddr", "--export-all", "--enable=receive-pack", "--base-path=\(r.temp.path)",
            "--listen=127.0.0.1", "--port=\(port)", r.temp.path], port: port))
        let url = "git://127.0.0.1:\(port)/remote.git"
        CLI.run(["remote", "remove", "origin"], in: r[0])
        CLI.run(["remote", "add", "origin", url], in: r[0])
        return (daemon, url)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: gitDaemon),
                   "git-daemon is missing: scripts/setup installs git"))
    func syncThroughGitDaemon() throws {
        let r = Replicas(1, samples: false)
        let (daemon, url) = try Self.gitDaemon(for: r)
        r.write(0, "Start.md", "# Start\n\nfirst line\nfrom r0 over git://\n")
        let pushed = r.sync(0)
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let clone = r.temp.path + "/over-daemon"
        let cloned = CLI.run(["clone", url, clone], in: r.temp.path)
        #expect(cloned.status == 0, "\(cloned.stderr)")
        #expect(CLI.read(clone + "/Start.md").contains("from r0 over git://"))
        withExtendedLifetime(daemon) {}
    }

    /// A CA file set for git's https (GIT_SSL_CAINFO, `http.sslCAInfo`) that cannot be read made
    /// every sync fail as "cannot reach the remote", over a path, git:// or ssh alike, where git
    /// reads it only for https. (Found timing a sync: the bundle was parsed again for each push.)
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: gitDaemon) && FileManager.default.isExecutableFile(atPath: sshd),
                   "git-daemon or sshd is missing: scripts/setup installs git and openssh-server"))
    func aCAFileThatCannotBeReadStopsNoTransferThatIsNotHTTPS() throws {
        let r = Replicas(1, samples: false)
        let badCA = ["GIT_SSL_CAINFO": r.temp.path + "/no-such/ca.crt"]
        Replicas.git(["config", "http.sslCAInfo", r.temp.path + "/no-such/ca.pem"], in: r[0])
        func pushes(_ line: String, _ extra: [String] = []) {
            r.write(0, "Start.md", "# Start\n\n\(line)\n")
            let synced = CLI.run(["sync"] + extra, in: r[0], environment: badCA)
            #expect(synced.status == 0, "\(line): \(synced.stderr)")
            #expect(Replicas.git(["--git-dir", r.bare, "show", "main:Start.md"], in: r.temp.path).stdout.contains(line))
        }
        pushes("over a path")

        let (daemon, url) = try Self.gitDaemon(for: r)
        pushes("over git://")
        let clone = r.temp.path + "/over-daemon"
        let cloned = CLI.run(["clone", url, clone], in: r.temp.path, environment: badCA)
        #expect(cloned.status == 0, "\(cloned.stderr)")
        #expect(CLI.read(clone + "/Start.md").contains("over git://"))
        withExtendedLifetime(daemon) {}

        let ssh = try SSHFixture(r)
        let server = try #require(ssh.start())
        pushes("over ssh", ["--accept-new-host"])
        withExtendedLifetime(server) {}
    }

    /// An sshd on 127.0.0.1 for replica 0 (whose folder is its HOME): host key and config in
    /// `dir`, the user's key in `~/.ssh/id_ed25519`, authorized by the server.
    struct SSHFixture {
        let dir: String
        let home: String
        let port: Int
        let url: String

        init(_ r: Replicas) throws {
            dir = r.temp.path + "/ssh"
            home = r[0]  // CLI.run sets HOME to the working folder
            try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
            port = Loopback.freePort()
            let user = String(cString: getpwuid(getuid())!.pointee.pw_name)
            url = "ssh://\(user)@127.0.0.1:\(port)\(r.bare)"
            keygen(dir + "/host_key")
            keygen(home + "/.ssh/id_ed25519")
            try FileManager.default.copyItem(atPath: home + "/.ssh/id_ed25519.pub", toPath: dir + "/authorized_keys")
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
            CLI.run(["remote", "remove", "origin"], in: r[0])
            CLI.run(["remote", "add", "origin", url], in: r[0])
        }

        func keygen(_ path: String) {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".pub")
            _ = runProcess("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", path], in: dir)
        }

        func start() -> ServerProcess? {
            ServerProcess(ServerTests.sshd, ["-D", "-e", "-f", dir + "/sshd_config"], port: port)
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: sshd),
                   "sshd is missing: scripts/setup installs openssh-server"))
    func syncOverSSHChecksTheHostKey() throws {
        let r = Replicas(1, samples: false)
        let ssh = try SSHFixture(r)
        r.write(0, "Start.md", "# Start\n\nover ssh\n")

        var server = ssh.start()
        try #require(server != nil)
        let unknown = r.sync(0)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("not in ~/.ssh/known_hosts"))
        let accepted = r.sync(0, ["--accept-new-host"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(CLI.read(ssh.home + "/.ssh/known_hosts").hasPrefix("[127.0.0.1]:\(ssh.port) ssh-ed25519 "))
        #expect(Replicas.git(["--git-dir", r.bare, "show", "main:Start.md"], in: r.temp.path).stdout.contains("over ssh"))

        // The server comes back with another host key: refused, even with --accept-new-host.
        server = nil
        ssh.keygen(ssh.dir + "/host_key")
        server = ssh.start()
        try #require(server != nil)
        r.write(0, "Start.md", "# Start\n\nover ssh, again\n")
        let changed = r.sync(0, ["--accept-new-host"])
        #expect(changed.status == 2)
        #expect(changed.stderr.contains("host key has CHANGED"))
        #expect(!Replicas.git(["--git-dir", r.bare, "show", "main:Start.md"], in: r.temp.path).stdout.contains("again"))
        withExtendedLifetime(server) {}
    }

    /// A remote fetched from a path and pushed to over ssh on another port (its `pushurl`): the
    /// push's host key is checked and recorded for the host and port it connects to. It was
    /// recorded under the fetch URL's (here none: a bare `127.0.0.1` line).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: sshd),
                   "sshd is missing: scripts/setup installs openssh-server"))
    func aPushToAnSSHPushURLRecordsTheHostKeyOfItsPort() throws {
        let r = Replicas(1, samples: false)
        let ssh = try SSHFixture(r)
        Replicas.git(["config", "remote.origin.url", r.bare], in: r[0])
        Replicas.git(["config", "remote.origin.pushurl", ssh.url], in: r[0])
        let server = try #require(ssh.start())
        r.write(0, "Start.md", "# Start\n\npushed to the push URL\n")
        let pushed = r.sync(0, ["--accept-new-host"])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(CLI.read(ssh.home + "/.ssh/known_hosts").hasPrefix("[127.0.0.1]:\(ssh.port) ssh-ed25519 "),
                "\(CLI.read(ssh.home + "/.ssh/known_hosts"))")
        #expect(Replicas.git(["--git-dir", r.bare, "show", "main:Start.md"], in: r.temp.path).stdout.contains("pushed to the push URL"))
        withExtendedLifetime(server) {}
    }

    /// Issue 9, item 11: an SSH_AUTH_SOCK naming a missing socket, or a socket no agent listens
    /// on any more, made sync report the remote as offline (exit 75) instead of trying the key
    /// files; and a key the server refuses is an authentication failure (exit 2), not offline.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: sshd),
                   "sshd is missing: scripts/setup installs openssh-server"))
    func staleSSHAuthSockFallsBackToKeyFiles() throws {
        let r = Replicas(1, samples: false)
        let ssh = try SSHFixture(r)
        let server = ssh.start()
        try #require(server != nil)

        let deadSocket = r.temp.path + "/dead-agent.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(deadSocket.utf8) + [0])
        }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(fd)
        #expect(bound == 0 && FileManager.default.fileExists(atPath: deadSocket))

        for (i, agent) in [r.temp.path + "/missing/agent.sock", deadSocket].enumerated() {
            r.write(0, "Start.md", "# Start\n\nover ssh \(i)\n")
            let synced = CLI.run(["sync", "--accept-new-host"], in: r[0], environment: ["SSH_AUTH_SOCK": agent])
            #expect(synced.status == 0, "\(agent): \(synced.stderr)")
            #expect(Replicas.git(["--git-dir", r.bare, "show", "main:Start.md"], in: r.temp.path).stdout.contains("over ssh \(i)"))
        }

        // A key the server does not know: authentication failed, exit 2.
        ssh.keygen(ssh.home + "/.ssh/id_ed25519")
        r.write(0, "Start.md", "# Start\n\nrefused key\n")
        let refused = CLI.run(["sync"], in: r[0], environment: ["SSH_AUTH_SOCK": deadSocket])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("authentication failed"), "\(refused.stderr)")
        withExtendedLifetime(server) {}
    }
}
