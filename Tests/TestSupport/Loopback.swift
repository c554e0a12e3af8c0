// TCP on 127.0.0.1 for tests that start their own servers: a listening socket on a port the
// kernel picks, a port nothing listens on, and whether a port accepts connections yet.
#if canImport(Glibc)
import Glibc
#endif

public enum Loopback {
    /// A socket bound to 127.0.0.1 on a port the kernel chose, listening with `backlog` when
    /// given (nil: bound only). The descriptor and its port; nil when the kernel refused.
    public static func bind(listen backlog: Int32? = nil) -> (fd: Int32, port: Int)? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                Glibc.bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound, backlog.map({ Glibc.listen(fd, $0) == 0 }) ?? true else { close(fd); return nil }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A port nothing listens on right now (bound once, then released), picked below the
    /// kernel's ephemeral range (32768-60999 here): a port the kernel chose there could be
    /// handed to an outgoing connection of a parallel test (git, curl, the servers' clients)
    /// before the server meant to listen on it bound it, and that server failed to start (seen
    /// once in a full run: sshd for a share test).
    public static func freePort() -> Int {
        for _ in 0..<64 {
            let port = Int.random(in: 20_000..<32_000)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { break }
            var address = address(port: port)
            let bound = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            close(fd)
            if bound { return port }
        }
        guard let (fd, port) = bind() else { return 0 }
        close(fd)
        return port
    }

    /// Whether something on 127.0.0.1 accepts a connection on `port`.
    public static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = address(port: port)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }
}
