// SheafCore is the pure note model: bytes and text in, values out. Everything that reads or
// writes the file system lives in SheafFiles (the vault on disk). This holds the rule by reading
// SheafCore's own sources, so a file call added there fails here, naming the file and line.
import Foundation
import Testing

@Suite struct CoreTouchesNoFilesTests {
    /// Foundation's and the C library's ways to reach the file system or run a process. A C call
    /// counts when it is called bare with a positional first argument (`open(path, ...)`), not a
    /// method, a declaration or a labelled call of Sheaf's own (`changes.rename(from:to:)`,
    /// `Self.read(text)`, `func read(_ text: String)`); call a method of that name as `Self.read`.
    static let foundationAPIs = [
        #"\bFileManager\b"#, #"\bFileHandle\b"#, #"\bProcess\b"#, #"\bDirectoryEnumerator\b"#, #"\bInputStream\b"#,
        #"\bOutputStream\b"#, "fileURLWithPath", "contentsOfFile", #"contentsOf: URL"#, #"\bData\(contentsOf"#,
        #"\bwrite\(toFile"#, #"\bwrite\(to: URL"#,
    ]
    static let systemCalls = [
        "open", "openat", "creat", "fopen", "fdopen", "close", "read", "pread", "readv", "write", "pwrite",
        "writev", "lseek", "stat", "lstat", "fstat", "fstatat", "statx", "statfs", "access", "faccessat",
        "opendir", "fdopendir", "readdir", "closedir", "scandir", "mkdir", "mkdirat", "rmdir", "unlink",
        "unlinkat", "rename", "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat", "readlink",
        "readlinkat", "realpath", "chmod", "fchmod", "chown", "truncate", "ftruncate", "fsync", "fdatasync",
        "utimensat", "futimens", "mmap", "flock", "fcntl", "inotify_init1", "posix_spawn", "fork", "execv",
        "execve", "execvp", "system", "popen", "getcwd", "chdir",
    ]

    static var coreSources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/SheafCore")
    }

    /// Whether a line of code (comments removed) uses a file-system API.
    static func usesFileSystem(_ code: String) throws -> Bool {
        let calls = #"(?<![\w.])(?<!func )(\#(systemCalls.joined(separator: "|")))\((?!\s*\w+:)"#
        let pattern = try NSRegularExpression(pattern: (foundationAPIs + [calls]).joined(separator: "|"))
        return pattern.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil
    }

    /// `file:line: text` for every line of SheafCore's Swift sources that uses a file-system API.
    static func fileSystemUses() throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: coreSources.path).filter { $0.hasSuffix(".swift") }.sorted()
        var uses: [String] = []
        for name in names {
            let text = try String(contentsOf: coreSources.appendingPathComponent(name), encoding: .utf8)
            for (number, line) in text.components(separatedBy: "\n").enumerated() {
                let code = line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? line
                if try usesFileSystem(code) {
                    uses.append("\(name):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        return uses
    }

    @Test func sheafCoreSourcesUseNoFileSystemAPI() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.coreSources.path)
        #expect(names.contains("Note.swift"), "SheafCore's sources are not where this test looks: \(Self.coreSources.path)")
        let uses = try Self.fileSystemUses()
        #expect(uses.isEmpty, "SheafCore touches the file system; move this to SheafFiles:\n\(uses.joined(separator: "\n"))")
    }

    /// The check itself finds what it is meant to find (a rule that cannot fail holds nothing).
    @Test func theCheckFindsFileCallsButNotSheafsOwnMethods() throws {
        #expect(try Self.usesFileSystem("let fd = open(path, O_RDONLY)"))
        #expect(try Self.usesFileSystem("guard fstat(fd, &info) == 0 else {"))
        #expect(try Self.usesFileSystem("FileManager.default.contents(atPath: p)"))
        #expect(try !Self.usesFileSystem("ProcessInfo.processInfo.environment[\"HOME\"]"))
        #expect(try !Self.usesFileSystem("for (from, to) in renamed { rename(from: from, to: to) }"))
        #expect(try !Self.usesFileSystem("(values, problem, _) = Self.read(text)"))
        #expect(try !Self.usesFileSystem("private static func read(_ text: String) -> Int {"))
        #expect(try !Self.usesFileSystem("lines.insert(contentsOf: added, at: 0)"))
    }
}
