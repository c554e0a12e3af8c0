import ArgumentParser
import SheafCore
import SheafKit

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show uncommitted changes and how the vault stands against its remote.",
        discussion: "Ahead and behind count commits as of the last pull or push; status itself never uses the network.")

    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        let status = try session.status()
        if json {
            Terminal.json(StatusJSON(status))
            return
        }
        if status.interruptedSync { Terminal.out("a sync was stopped half way; the next sheaf command finishes it") }
        Terminal.out("on branch \(status.branch ?? "(detached)")")
        if let remote = status.remote {
            switch (status.ahead, status.behind) {
            case (0, 0): Terminal.out("in step with \(remote) as of the last sync")
            case (let a, 0): Terminal.out("\(a) commit\(a == 1 ? "" : "s") to push to \(remote)")
            case (0, let b): Terminal.out("\(b) commit\(b == 1 ? "" : "s") to pull from \(remote)")
            case (let a, let b): Terminal.out("\(a) to push, \(b) to pull: `sheaf sync` merges them")
            }
        } else {
            Terminal.out("no remote: add one with `sheaf remote add origin URL`")
        }
        if status.changes.isEmpty {
            Terminal.out("no uncommitted changes")
        } else {
            Terminal.out("uncommitted changes:")
            for c in status.changes {
                let what = c.kind.committedWord.padding(toLength: 8, withPad: " ", startingAt: 0)
                Terminal.out("  \(what) \(c.oldPath.map { "\($0) -> " } ?? "")\(c.path)")
            }
        }
    }
}

struct StatusJSON: Encodable {
    let version = jsonVersion
    let branch: String?
    let remote: String?
    let ahead: Int
    let behind: Int
    let interruptedSync: Bool
    let changes: [Change]

    struct Change: Encodable {
        let kind: String
        let path: String
        let oldPath: String?
    }

    init(_ s: VaultStatus) {
        branch = s.branch; remote = s.remote; ahead = s.ahead; behind = s.behind; interruptedSync = s.interruptedSync
        changes = s.changes.map { Change(kind: $0.kind.committedWord, path: $0.path, oldPath: $0.oldPath) }
    }
}
