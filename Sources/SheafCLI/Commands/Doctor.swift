import ArgumentParser
import Foundation
import SheafKit

struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "doctor",
        abstract: "Check the vault's health: links, orphans, names, conflict markers, git and the index.",
        discussion: """
        Reports links that reach no file (with the line), #heading and #^block references the target \
        note does not hold, notes nothing links to that link to nothing, attachments nothing links to, \
        names that differ only by case or that Windows and Android cannot store, conflict markers in \
        notes (with the commit that brought them), files git tracks that .gitignore ignores, and \
        problems in the index. Every finding says how to fix it; doctor changes nothing. Exits 1 when \
        it found something it did not fix, 0 when the vault is healthy. --fix repairs only what is safe.
        """)

    @Flag(help: "Repair what is safe: untrack files .gitignore ignores (they stay on disk), rebuild a damaged index. Never deletes or edits a note.")
    var fix = false
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        let findings = try session.doctor(fix: fix)
        try reportWarnings(session)
        if json {
            Terminal.json(DoctorJSON(findings: findings.map(DoctorFindingJSON.init)))
        } else if findings.isEmpty {
            Terminal.out("no problems found")
        } else {
            for f in findings {
                let place: TerminalLine = f.line.map { "\(f.path):\($0)" } ?? "\(f.path)"
                let commit: TerminalLine = f.commit.map { " (commit \($0.prefix(12)))" } ?? ""
                Terminal.out("\(Terminal.bold(place))  \(f.kind.rawValue)  \(text: f.message)\(commit)")
                Terminal.out(Terminal.dim(f.fixed ? "  fixed (commit to record it)" : "  fix: \(text: f.fix)"))
            }
            var counts: [String: Int] = [:]
            for f in findings { counts[f.kind.rawValue, default: 0] += 1 }
            Terminal.out(.joined(counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }, separator: ", "))
        }
        if findings.contains(where: { !$0.fixed }) { throw ExitCode(1) }
    }
}

struct DoctorFindingJSON: Encodable {
    let kind: String
    let path: String
    let line: Int?
    let message: String
    let fix: String
    let commit: String?
    let fixed: Bool

    init(_ f: DoctorFinding) {
        kind = f.kind.rawValue; path = f.path; line = f.line; message = f.message; fix = f.fix; commit = f.commit; fixed = f.fixed
    }
}

struct DoctorJSON: Encodable {
    let version = jsonVersion
    let findings: [DoctorFindingJSON]
}
