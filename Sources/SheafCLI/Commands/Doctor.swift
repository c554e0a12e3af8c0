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
        it found something it did not fix, 0 when the vault is healthy. --fix repairs only what is safe. \
        Files git tracks that .gitignore ignores stay tracked (the rule may have come with a sync, and \
        committing their removal deletes them on every other device) unless named with --untrack.
        """)

    @Flag(help: "Repair what is safe: rebuild a damaged index or git's index. Never deletes or edits a note, never untracks a file.")
    var fix = false
    @Option(name: .customLong("kind"), help: "Only findings of this kind (repeatable): broken-link, broken-heading, orphan-note, ...")
    var kinds: [DoctorFinding.Kind] = []
    @Option(name: .customLong("folder"), help: "Only findings about files in this folder and its subfolders, in any case (repeatable).")
    var folders: [String] = []
    @Option(name: .customLong("untrack"), help: ArgumentHelp(
        "Stop tracking this file (or the files below this folder; relative to the vault) that git tracks although .gitignore ignores it; it stays on disk here, the removal is staged for the next commit, and every device that syncs it deletes the file. Repeatable.",
        valueName: "path"))
    var untrack: [String] = []
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        let findings = try session.doctor(fix: fix, untrack: untrack).filter(isAsked)
        try reportWarnings(session)
        if json {
            Terminal.json(DoctorJSON(findings))
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

    /// Whether a finding is of a kind and in a folder asked for (everything when none is given).
    func isAsked(_ finding: DoctorFinding) -> Bool {
        guard kinds.isEmpty || kinds.contains(finding.kind) else { return false }
        let path = finding.path.lowercased()
        return folders.isEmpty || folders.contains { folder in
            let f = folder.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            return f.isEmpty || path == f || path.hasPrefix(f + "/")
        }
    }
}

extension DoctorFinding.Kind: ExpressibleByArgument {}
