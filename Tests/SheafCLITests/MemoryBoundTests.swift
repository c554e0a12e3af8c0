// Peak memory of whole commands on hostile inputs (issue 9, item 12): a huge sparse note, a huge
// blob from a remote, images whose decoding would take gigabytes. Each command is spawned under
// `/usr/bin/time`, which reports the child's peak RSS; the budget is 300 MB for any command.
import Foundation
import Testing

enum PeakRSS {
    static let budgetKB = 300_000

    /// Runs `sheaf ARGUMENTS` (a shell line, `$SHEAF` is the binary) under /usr/bin/time in
    /// `directory`; the result and the child's peak RSS in kilobytes.
    static func run(_ arguments: String, in directory: String) -> (RunResult, Int) {
        let r = CLI.sh("/usr/bin/time -f 'maxrss=%M' \"$SHEAF\" \(arguments)", in: directory)
        let kilobytes = r.stderr.split(separator: "\n").last { $0.hasPrefix("maxrss=") }.flatMap { Int($0.dropFirst(7)) } ?? -1
        return (r, kilobytes)
    }
}

@Suite struct MemoryBoundTests {
    @Test func indexOfA2GBSparseNoteReadsOnlyItsHead() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        // Sparse: 2 GB of zeros that take no disk. The scanner read it whole (4.2 GB peak RSS).
        #expect(CLI.sh("truncate -s 2G Inbox/huge.md", in: vault).status == 0)
        // A large note with a title in its head: indexed by path and title.
        let big = "---\ntitle: Enormous ledger\n---\n# Ledger\n" + String(repeating: "row of numbers 12345\n", count: 600_000)
        try big.write(toFile: vault + "/Inbox/ledger.md", atomically: false, encoding: .utf8)
        let (r, kilobytes) = PeakRSS.run("index", in: vault)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(kilobytes > 0 && kilobytes < PeakRSS.budgetKB, "peak RSS \(kilobytes) KB")
        #expect(r.stderr.contains("Inbox/huge.md") && r.stderr.contains("larger than 10 MB (2147 MB)"), "\(r.stderr)")
        let found = CLI.run(["search", "title:enormous"], in: vault)
        #expect(found.status == 0 && found.stdout.contains("Inbox/ledger.md"), "\(found.stdout)\(found.stderr)")
        // The body of an oversized note is not indexed.
        #expect(CLI.run(["search", "numbers"], in: vault).stdout.contains("ledger") == false)
    }
}
