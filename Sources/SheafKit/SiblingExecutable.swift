// Sheaf is several executables installed side by side (scripts/install): `sheaf`, the thumbnail
// helper `sheaf-thumbnailer` (the only one linked with libvips) and `sheaf-serve` (the only one
// linked with the web server, Hummingbird and NIO). Each stays out of `sheaf` so that every other
// command starts without mapping it (BENCHMARKS.md, "Process start"). One rule finds a sibling:
// beside this process's own executable (how scripts/install and the build folder lay them out),
// else the first on PATH.
import Foundation
import SheafCore
#if canImport(Glibc)
import Glibc
#endif

public enum SiblingExecutable {
    /// The executable `name` beside this process's executable, else the first on PATH; nil when
    /// neither holds one that may be run.
    public static func locate(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        var folders: [String] = []
        if let own = ownFolder() { folders.append(own) }
        folders += (environment["PATH"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        for folder in folders {
            let candidate = folder + "/" + name
            var info = stat()
            if stat(candidate, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }

    /// The folder of this process's executable (resolved, from /proc/self/exe).
    public static func ownFolder() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let own = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (own as NSString).deletingLastPathComponent
    }

    /// Becomes the executable `name` (execve): same pid, standard streams, environment and
    /// signals, so whoever started this process (an editor, a service manager, a test that
    /// kills it) holds the sibling. `arguments` is the whole argv, its first word included.
    /// Returns only by throwing: the sibling is missing or could not be run.
    public static func become(_ name: String, arguments: [String], missing: String) throws(SheafError) -> Never {
        guard let path = locate(name) else {
            throw SheafError("cannot find `\(name)`", path: ownFolder(),
                             cause: "it is neither beside `sheaf` nor on PATH, and \(missing)",
                             hint: "install the executables side by side (scripts/install)")
        }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        execv(path, argv)
        let reason = String(cString: strerror(errno))
        throw SheafError("cannot run `\(name)`", path: path, cause: reason)
    }
}
