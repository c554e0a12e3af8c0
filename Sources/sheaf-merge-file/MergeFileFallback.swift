// Handing a merge to `sheaf merge-file`: the `sheaf` beside this executable (as installed by
// scripts/install, and where `sheaf install-merge-driver` found this one), else the one on PATH.
import SheafText
#if canImport(Glibc)
import Glibc
#endif

enum MergeFileFallback {
    /// Runs `sheaf merge-file` with the same arguments in place of this process. With
    /// SHEAF_MERGE_FILE_TRACE set, first says why on standard error (Benchmarks/merge_driver.py
    /// counts the reasons).
    static func run(_ arguments: [String], reason: String) -> Never {
        if let trace = getenv("SHEAF_MERGE_FILE_TRACE"), trace.pointee != 0 {
            _ = try? FileBytes.writeAll(Array("sheaf-merge-file: handing over: \(reason)\n".utf8), to: 2)
        }
        let beside = executableFolder().map { $0 + "/sheaf" }
        let program = beside.flatMap { access($0, X_OK) == 0 ? $0 : nil } ?? "sheaf"
        let argv = [program, "merge-file"] + arguments
        var cArguments = argv.map { strdup($0) }
        cArguments.append(nil)
        execvp(program, cArguments)
        // In the shape of sheaf's own errors (docs/exit-codes.md).
        let message = "sheaf: cannot run: \(program)\n  cause: \(String(cString: strerror(errno)))\n"
            + "  sheaf-merge-file hands this merge to `sheaf merge-file`: install sheaf beside it or on PATH\n"
        _ = try? FileBytes.writeAll(Array(message.utf8), to: 2)
        exit(2)
    }

    /// Why the plain rules gave no answer: front-matter beyond the plain shape, or plain blocks
    /// both sides changed whose lines do not merge (the key-by-key merge needs the values' meaning).
    static func frontMatterReason(_ sides: [UInt8]...) -> String {
        let plain = sides.allSatisfy { bytes in
            NoteDocument(text: String(decoding: bytes, as: UTF8.self)).frontMatter.map { PlainFrontMatter.keys(of: $0) != nil } ?? true
        }
        return plain ? "plain front-matter both sides changed, to merge key by key" : "front-matter beyond the plain shape"
    }

    /// The folder of this process's executable.
    private static func executableFolder() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let path = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        return String(path[..<slash])
    }
}
