// Runs the built `sheaf` binary as a user would, on a temporary copy of samples/.
import Foundation
import Testing
import TestSupport

enum CLI {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `sheaf` binary built beside the test bundle.
    static let binary: String = {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sheaf").path
        if FileManager.default.isExecutableFile(atPath: besideTests) { return besideTests }
        return packageRoot.appendingPathComponent(".build/debug/sheaf").path
    }()

    /// Runs `sheaf` with `arguments` in `directory`, with a clean environment.
    @discardableResult
    static func run(_ arguments: [String], in directory: String, stdin: String? = nil,
                    environment extra: [String: String] = [:]) -> RunResult {
        runProcess(binary, arguments, in: directory, stdin: stdin, environment: extra)
    }

    /// Runs a shell command line.
    @discardableResult
    static func sh(_ script: String, in directory: String) -> RunResult {
        runProcess("/bin/sh", ["-c", script], in: directory, environment: ["SHEAF": binary])
    }

    /// A fresh copy of samples/ (not yet a vault) in a temporary folder.
    static func samplesCopy(_ temp: TempDir) -> String {
        let vault = temp.path + "/vault"
        try! FileManager.default.copyItem(atPath: packageRoot.appendingPathComponent("samples").path, toPath: vault)
        return vault
    }

    /// A copy of samples/ made a vault with `sheaf init`.
    static func sampleVault(_ temp: TempDir) -> String {
        let vault = samplesCopy(temp)
        let r = run(["init"], in: vault)
        precondition(r.status == 0, r.stderr)
        return vault
    }

    static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    static func write(_ text: String, to path: String) { TestFile.write(text, to: path) }

    /// Every file below `root` (skipping .git and .sheaf) with its bytes.
    static func snapshot(_ root: String) -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)!
        while let rel = enumerator.nextObject() as? String {
            if rel.hasPrefix(".git") || rel.hasPrefix(".sheaf") { continue }
            var isDir: ObjCBool = false
            let full = root + "/" + rel
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDir), !isDir.boolValue {
                result[rel] = FileManager.default.contents(atPath: full)
            }
        }
        return result
    }
}
