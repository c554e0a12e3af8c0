// Replicas of one vault syncing through a real bare repository, driven through the built binary
// and plain git, as users would.
import Foundation
import SheafCore
import TestSupport
import Testing

/// A bare repository and vaults cloned from it, all in one temporary folder.
final class Replicas {
    let temp = TempDir()
    let bare: String
    private(set) var vaults: [String] = []

    /// `count` vaults: the first is a copy of samples/ pushed to the bare repository, the
    /// others are `sheaf clone`s of it; each has its own device name.
    init(_ count: Int, samples: Bool = true) {
        bare = temp.path + "/remote.git"
        runProcess("/usr/bin/git", ["init", "-q", "--bare", "-b", "main", bare], in: temp.path)
        let first = temp.path + "/r0"
        if samples {
            try! FileManager.default.copyItem(atPath: CLI.packageRoot.appendingPathComponent("samples").path, toPath: first)
        } else {
            try! FileManager.default.createDirectory(atPath: first, withIntermediateDirectories: true)
            CLI.write("# Start\n\nfirst line\n", to: first + "/Start.md")
        }
        precondition(CLI.run(["init"], in: first).status == 0)
        CLI.run(["config", "set", "device", "r0"], in: first)
        precondition(CLI.run(["remote", "add", "origin", bare], in: first).status == 0)
        let pushed = CLI.run(["sync"], in: first)
        precondition(pushed.status == 0, pushed.stderr)
        vaults.append(first)
        for i in 1..<count {
            let path = temp.path + "/r\(i)"
            let cloned = CLI.run(["clone", bare, path], in: temp.path)
            precondition(cloned.status == 0, cloned.stderr)
            CLI.run(["config", "set", "device", "r\(i)"], in: path)
            vaults.append(path)
        }
    }

    subscript(i: Int) -> String { vaults[i] }

    @discardableResult
    func sync(_ i: Int, _ extra: [String] = []) -> RunResult {
        CLI.run(["sync"] + extra, in: vaults[i])
    }

    /// Syncs every replica in turn until a round changes nothing (at most 3 rounds).
    func syncAll() {
        for _ in 0..<3 {
            for i in vaults.indices { sync(i) }
        }
    }

    func file(_ i: Int, _ path: String) -> String { CLI.read(vaults[i] + "/" + path) }
    func write(_ i: Int, _ path: String, _ text: String) { TestFile.write(text, to: vaults[i] + "/" + path) }
    func edit(_ i: Int, _ path: String, _ change: (String) -> String) { write(i, path, change(file(i, path))) }

    /// The paths of every conflict file in a replica.
    func conflictFiles(_ i: Int) -> [String] {
        CLI.snapshot(vaults[i]).keys.filter { ConflictName.isConflict($0) }.sorted()
    }

    /// Whether two replicas hold the same files with the same bytes (ignored files aside).
    func identical(_ a: Int, _ b: Int) -> Bool {
        tracked(a) == tracked(b)
    }

    /// The files git would track (what `info/exclude` lists aside, such as `.trash/` and the
    /// temporary files of an interrupted atomic write).
    func tracked(_ i: Int) -> [String: Data] {
        CLI.snapshot(vaults[i]).filter { key, _ in
            !key.hasPrefix(".trash") && !key.hasPrefix(".obsidian/workspace")
                && !(key as NSString).lastPathComponent.hasPrefix(".sheaf-tmp-")
        }
    }

    /// The paths whose bytes differ between two replicas.
    func differences(_ a: Int, _ b: Int) -> [String] {
        let (x, y) = (tracked(a), tracked(b))
        return Set(x.keys).union(y.keys).filter { x[$0] != y[$0] }.sorted()
    }

    /// Runs git in a replica with an identity.
    @discardableResult
    func git(_ i: Int, _ arguments: [String]) -> RunResult {
        GitCLI.run(arguments, in: vaults[i])
    }

    @discardableResult
    static func git(_ arguments: [String], in directory: String) -> RunResult {
        GitCLI.run(arguments, in: directory)
    }
}

/// No line of a note starts with a git conflict marker.
func hasConflictMarkers(_ text: String) -> Bool {
    text.split(separator: "\n", omittingEmptySubsequences: false).contains { line in
        ["<<<<<<<", ">>>>>>>", "|||||||"].contains { line.hasPrefix($0) } || line == "======="
    }
}
