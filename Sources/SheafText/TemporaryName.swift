// The hidden names Sheaf writes a file under before renaming it over the file it replaces.
// `sheaf doctor` knows them by their prefix and the process id that follows it.
#if canImport(Glibc)
import Glibc
#endif

public enum TemporaryName {
    public static let prefix = ".sheaf-tmp-"

    /// A fresh temporary file name: the prefix, this process's id, a random number.
    public static func fileName() -> String {
        prefix + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// A temporary path in the folder of `path`, with no part of its name (a 255-byte name leaves
    /// no room): "." for a bare name, so a relative `out.md` gets `./.sheaf-tmp-...` (folder
    /// arithmetic that gave "" there made it `/.sheaf-tmp-...`, in the file system's root).
    public static func beside(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "./" + fileName() }
        return String(path[..<slash]) + "/" + fileName()
    }
}
