// Test servers for the transport tests, started and stopped by each test on 127.0.0.1:
// - HTTPSGitServer: nginx with TLS (a CA and a server certificate for 127.0.0.1/localhost made
//   here with openssl), Basic auth (an htpasswd line from `openssl passwd`), and git's own
//   git-http-backend behind fcgiwrap, serving bare repositories from a temporary folder.
// - SilentServer: a listening socket that accepts connections and never writes a byte.
// (TestSupport's `runProcess(deadline:)` kills a command that outlives its deadline, so a hang
// fails the test instead of stopping the suite.)
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

final class HTTPSGitServer {
    static let nginx = "/usr/sbin/nginx"
    static let fcgiwrap = "/usr/sbin/fcgiwrap"
    static let openssl = "/usr/bin/openssl"
    static let backend = "/usr/lib/git-core/git-http-backend"
    /// The programs the server needs; scripts/setup installs them (nginx-light, fcgiwrap, openssl, git).
    static let programs = [nginx, fcgiwrap, openssl, backend]

    let dir: String
    let port: Int
    /// The CA certificate that signed the server's certificate (for GIT_SSL_CAINFO).
    let caFile: String
    private var fcgi: pid_t?
    private var web: ServerProcess?

    /// Starts the server; `user`/`password` is an account that may read and push, each of
    /// `readers` (user, password) one that may read but never push (the server answers 403).
    init(in dir: String, user: String, password: String, readers: [(String, String)] = []) throws {
        self.dir = dir
        caFile = dir + "/ca.pem"
        port = Loopback.freePort()
        let fm = FileManager.default
        for folder in ["repos", "tmp", "logs"] { try fm.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: true) }

        // A CA, and a server certificate it signs for 127.0.0.1 and localhost.
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.openssl(["req", "-x509"] + ec + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Sheaf Test CA"], in: dir)
        try Self.openssl(["req"] + ec + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"], in: dir)
        CLI.write("subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
                  to: dir + "/server.ext")
        try Self.openssl(["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                          "-out", "server.pem", "-days", "2", "-extfile", "server.ext"], in: dir)
        var htpasswd = ""
        for (name, secret) in [(user, password)] + readers {
            let hash = try Self.openssl(["passwd", "-apr1", secret], in: dir).trimmingCharacters(in: .whitespacesAndNewlines)
            htpasswd += "\(name):\(hash)\n"
        }
        CLI.write(htpasswd, to: dir + "/htpasswd")
        // A reader's push (git-receive-pack, in the path or as `?service=`) is refused.
        let readerNames = readers.map(\.0).joined(separator: "|")
        let readOnly = readers.isEmpty ? "" : """
                  set $push "";
                  if ($uri ~ "git-receive-pack$") { set $push "p"; }
                  if ($arg_service = "git-receive-pack") { set $push "p"; }
                  set $reader "";
                  if ($remote_user ~ "^(\(readerNames))$") { set $reader "r"; }
                  set $refuse "$push$reader";
                  if ($refuse = "pr") { return 403; }
            """

        // git-http-backend, run by fcgiwrap for each request nginx forwards.
        let socket = dir + "/fcgi.sock"
        guard let pid = Spawn.start(Self.fcgiwrap, ["-s", "unix:" + socket], in: "/", environment: ["PATH": "/usr/bin:/bin"],
                                    stderr: dir + "/logs/fcgiwrap.err") else { throw ServerError("fcgiwrap did not start") }
        fcgi = pid
        for _ in 0..<200 where !fm.fileExists(atPath: socket) { usleep(50_000) }
        guard fm.fileExists(atPath: socket) else { throw ServerError("fcgiwrap made no socket") }

        CLI.write("""
            daemon off;
            master_process off;
            worker_processes 1;
            error_log \(dir)/logs/error.log;
            pid \(dir)/nginx.pid;
            events { worker_connections 64; }
            http {
              access_log \(dir)/logs/access.log;
              client_body_temp_path \(dir)/tmp/body;
              fastcgi_temp_path \(dir)/tmp/fastcgi;
              proxy_temp_path \(dir)/tmp/proxy;
              uwsgi_temp_path \(dir)/tmp/uwsgi;
              scgi_temp_path \(dir)/tmp/scgi;
              server {
                listen 127.0.0.1:\(port) ssl;
                ssl_certificate \(dir)/server.pem;
                ssl_certificate_key \(dir)/server.key;
                auth_basic "sheaf test";
                auth_basic_user_file \(dir)/htpasswd;
                client_max_body_size 0;
                location / {
            \(readOnly)
                  fastcgi_pass unix:\(socket);
                  include /etc/nginx/fastcgi_params;
                  fastcgi_param SCRIPT_FILENAME \(Self.backend);
                  fastcgi_param GIT_PROJECT_ROOT \(dir)/repos;
                  fastcgi_param GIT_HTTP_EXPORT_ALL "";
                  fastcgi_param PATH_INFO $uri;
                  fastcgi_param REMOTE_USER $remote_user;
                }
              }
            }

            """, to: dir + "/nginx.conf")
        guard let web = ServerProcess(Self.nginx, ["-e", dir + "/logs/error.log", "-p", dir, "-c", dir + "/nginx.conf"], port: port) else {
            throw ServerError("nginx did not start: " + CLI.read(dir + "/logs/error.log"))
        }
        self.web = web
    }

    deinit { stop() }

    func stop() {
        web = nil
        if let fcgi {
            kill(fcgi, SIGKILL)
            _ = Spawn.wait(fcgi)
            self.fcgi = nil
        }
    }

    /// Creates an empty bare repository that accepts pushes; returns its path.
    @discardableResult
    func createRepository(_ name: String) -> String {
        let path = dir + "/repos/" + name
        _ = runProcess("/usr/bin/git", ["init", "-q", "--bare", "-b", "main", path], in: dir)
        _ = runProcess("/usr/bin/git", ["--git-dir", path, "config", "http.receivepack", "true"], in: dir)
        return path
    }

    /// The https URL of a repository, with optional user-info.
    func url(_ name: String, userInfo: String? = nil) -> String {
        "https://" + (userInfo.map { $0 + "@" } ?? "") + "127.0.0.1:\(port)/" + name
    }

    @discardableResult
    private static func openssl(_ arguments: [String], in dir: String) throws -> String {
        let result = runProcess(openssl, arguments, in: dir)
        guard result.status == 0 else { throw ServerError("openssl \(arguments.first ?? "") failed: \(result.stderr)") }
        return result.stdout
    }
}

struct ServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A TCP listener on 127.0.0.1 that accepts every connection and never answers.
final class SilentServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var connections: [Int32] = []
    private let done = DispatchSemaphore(value: 0)

    init() throws {
        guard let (fd, port) = Loopback.bind(listen: 16) else { throw ServerError("cannot listen") }
        listener = fd
        self.port = port
        let thread = Thread { [self] in
            while true {
                let fd = accept(listener, nil, nil)
                if fd < 0 { break }
                lock.lock()
                connections.append(fd)
                lock.unlock()
            }
            done.signal()
        }
        thread.start()
    }

    /// How many connections it accepted so far.
    var accepted: Int {
        lock.lock()
        defer { lock.unlock() }
        return connections.count
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        done.wait()
        close(listener)
        for fd in connections { close(fd) }
    }
}
