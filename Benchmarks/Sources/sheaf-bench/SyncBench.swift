// `sheaf-bench sync`: the sync budgets of docs/budgets.md, each next to git's own CLI doing the
// same work on an identical clone in the same run, samples alternating between the two.
//
// 1. `sheaf sync` with one note edited, local bare remote. Vault A (a copy of the generated vault,
//    `sheaf init`, `sheaf index`, `sheaf remote add origin remote.git`, a first `sheaf sync`); the
//    reference G is a `git clone` of a copy of remote.git as it is after that first sync (its own
//    remote, so the two never see each other's commits). Each sample appends a line to the same
//    note in A and in G, then times `sheaf sync` in A against `git add -A`, `git commit -qm x` and
//    `git push -q` in G (the three processes summed).
// 2. `sheaf pull` of 100 changed notes, index update included. B is a `sheaf clone` of remote.git
//    (its clone builds the index), D a plain `git clone` of it at the same commit. Each sample runs
//    `generate_vault.py --edit 100 --seed K` in A and `sheaf sync` there (neither timed; A plays the
//    other device), then times `sheaf pull` in B against `git pull -q --no-rebase` in D, which pull
//    the same commit.
// 3. The pieces, with nothing to do: process start, the commit-first step, the freshness walk, an
//    up-to-date pull and sync, and git's status, add and fetch on the same vault.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

func runSyncBenchmark(options: Options, sheaf: String, pristine: String, generator: String) {
    // Commits by git's CLI need an identity; a fixed one also keeps global config out of it.
    for (key, value) in ["GIT_AUTHOR_NAME": "sheaf-bench", "GIT_AUTHOR_EMAIL": "bench@sheaf.invalid",
                         "GIT_COMMITTER_NAME": "sheaf-bench", "GIT_COMMITTER_EMAIL": "bench@sheaf.invalid"] {
        setenv(key, value, 1)
    }
    let fm = FileManager.default
    func log(_ text: String) { FileHandle.standardError.write(Data("\(text)\n".utf8)) }
    if !fm.fileExists(atPath: pristine) {
        log("generating \(options.notes) notes in \(pristine)...")
        must("python3", [generator, "--notes", String(options.notes), "--seed", "1", pristine], in: options.work)
    }
    let work = options.work + "/sync\(options.notes)"
    let remote = work + "/remote.git", gitRemote = work + "/remote-git.git"
    let a = work + "/A", b = work + "/B", g = work + "/G", d = work + "/D"
    // --reuse keeps a set-up whose four vaults are all there (an earlier run finished it).
    let reusing = options.reuse && [a, b, g, d].allSatisfy { fm.fileExists(atPath: $0 + "/.git") }
    if options.reuse && !reusing { log("nothing to reuse in \(work): building the set-up") }
    var firstSyncSeconds = 0.0
    if !reusing {
        try? fm.removeItem(atPath: work)
        try? fm.createDirectory(atPath: work, withIntermediateDirectories: true)
        log("set-up: copy, init, index, first sync...")
        must("git", ["init", "-q", "--bare", "-b", "main", remote], in: work)
        must("cp", ["-a", pristine, a], in: work)
        must(sheaf, ["init"], in: a)
        must(sheaf, ["index"], in: a)
        must(sheaf, ["remote", "add", "origin", remote], in: a)
        firstSyncSeconds = must(sheaf, ["sync"], in: a).seconds
        must("cp", ["-a", remote, gitRemote], in: work)
        must("git", ["clone", "-q", gitRemote, g], in: work)
    } else {
        log("reusing the set-up in \(work)")
    }
    let bytes = notesBytes(a)
    let runSync = options.only != "pull", runPull = options.only != "sync"

    // The notes, in a fixed order; each sample edits another one.
    var notes: [String] = []
    let enumerator = fm.enumerator(atPath: a)
    while let path = enumerator?.nextObject() as? String {
        if (path as NSString).lastPathComponent.hasPrefix(".") { enumerator?.skipDescendants(); continue }
        if path.hasSuffix(".md") { notes.append(path) }
    }
    notes.sort()
    guard !notes.isEmpty else { fail("no notes in \(a)") }
    func append(_ line: String, to path: String) {
        guard let handle = FileHandle(forWritingAtPath: path) else { fail("cannot write \(path)") }
        handle.seekToEndOfFile()
        handle.write(Data("\n\(line)\n".utf8))
        handle.closeFile()
    }

    var sheafSync: [Double] = [], gitSync: [Double] = []
    var syncPeakKB = 0
    var lastSyncOutput = ""
    if runSync { log("sync of 1 edited note, \(options.runs) samples...") }
    for k in 0..<(runSync ? options.runs : 0) {
        let note = notes[(k * 7919 + 11) % notes.count]
        let line = "sheaf-bench sync edit \(k)"
        append(line, to: a + "/" + note)
        append(line, to: g + "/" + note)
        func sheafSample() {
            let run = must(sheaf, ["sync"], in: a)
            sheafSync.append(run.seconds)
            syncPeakKB = max(syncPeakKB, run.peakKB)
            lastSyncOutput = run.stdout
        }
        func gitSample() {
            let add = must("git", ["add", "-A"], in: g)
            let commit = must("git", ["commit", "-qm", "x"], in: g)
            let push = must("git", ["push", "-q"], in: g)
            gitSync.append(add.seconds + commit.seconds + push.seconds)
        }
        if k % 2 == 0 { sheafSample(); gitSample() } else { gitSample(); sheafSample() }
    }

    if !reusing {
        log("clones for the pull: sheaf clone B (builds the index), git clone D...")
        must(sheaf, ["clone", remote, b], in: work)
        must("git", ["clone", "-q", remote, d], in: work)
    } else {
        // B and D catch up with what the sync samples (or an earlier run) pushed.
        must(sheaf, ["pull"], in: b)
        must("git", ["pull", "-q", "--no-rebase"], in: d)
    }

    // A reused set-up gets edits no earlier run made (the generator appends, so any seed changes
    // the notes; a fresh seed picks other notes).
    let seedBase = reusing ? 1_000 + Int(Date().timeIntervalSince1970) % 1_000_000 * 16 : 100
    var sheafPull: [Double] = [], gitPull: [Double] = []
    var sheafPullCPU: [Double] = [], gitPullCPU: [Double] = []
    var pullPeakKB = 0, gitPullPeakKB = 0, pullOwnPeakKB = 0
    var pulledPaths: [String] = []
    var afterPullWalk: [Double] = []
    // The floor of the pull's index update, in the same run: a plain FTS5 table of D's notes
    // (fts_reference.py, as for the cold index) updated with the notes each `git pull` changed.
    var plainUpdate: [Double] = [], gitPlusPlain: [Double] = []
    let plainDB = work + "/plain-fts.sqlite"
    if runPull {
        log("plain FTS5 table of D's notes (the index update's reference)...")
        must("python3", [reference, d, plainDB], in: work)
    }
    if runPull { log("pull of 100 edited notes, \(options.runs) samples...") }
    for k in 0..<(runPull ? options.runs : 0) {
        must("python3", [generator, "--edit", "100", "--seed", String(seedBase + k), a], in: work)
        must(sheaf, ["sync"], in: a)
        func sheafSample() {
            let run = must(sheaf, ["pull"], in: b, sampleOwnPeak: true)
            sheafPull.append(run.seconds)
            sheafPullCPU.append(run.cpuSeconds)
            pullPeakKB = max(pullPeakKB, run.peakKB)
            pullOwnPeakKB = max(pullOwnPeakKB, run.ownPeakKB)
            pulledPaths.append(run.stdout.split(separator: "\n").last.map(String.init) ?? "")
        }
        func gitSample() {
            let before = must("git", ["rev-parse", "HEAD"], in: d).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let run = must("git", ["pull", "-q", "--no-rebase"], in: d)
            gitPull.append(run.seconds)
            gitPullCPU.append(run.cpuSeconds)
            gitPullPeakKB = max(gitPullPeakKB, run.peakKB)
            let after = must("git", ["rev-parse", "HEAD"], in: d).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let update = must("python3", [reference, "update", d, plainDB, before, after], in: work)
            let json = (try? JSONSerialization.jsonObject(with: Data(update.stdout.utf8))) as? [String: Any]
            let seconds = (json?["seconds"] as? Double) ?? .nan
            plainUpdate.append(seconds)
            gitPlusPlain.append(run.seconds + seconds)
        }
        if k % 2 == 0 { sheafSample(); gitSample() } else { gitSample(); sheafSample() }
        // Whether the pull left the index current: the next walk finds nothing to read.
        afterPullWalk.append(must(sheaf, ["index"], in: b).seconds)
    }
    // Both pulled clones must hold what A holds.
    let sameB = spawn("git", ["diff", "--quiet", "HEAD", "origin/main"], in: b).status == 0
    let headA = must("git", ["rev-parse", "HEAD"], in: a).stdout, headB = must("git", ["rev-parse", "HEAD"], in: b).stdout
    let headD = must("git", ["rev-parse", "HEAD"], in: d).stdout
    let lastIndex = must(sheaf, ["index"], in: b).stdout.trimmingCharacters(in: .whitespacesAndNewlines)

    // The pieces, with nothing to do in B and D: process start, the commit every sync command makes
    // first (staging walks the work tree), the index's freshness walk, an up-to-date pull and sync.
    log("pieces, nothing to do...")
    let pieces: [(String, String, [String], String)] = [
        ("`sheaf --version` (process start)", sheaf, ["--version"], b),
        ("`sheaf commit`, nothing to commit", sheaf, ["commit"], b),
        ("`sheaf index`, nothing changed", sheaf, ["index"], b),
        ("`sheaf pull`, up to date", sheaf, ["pull"], b),
        ("`sheaf sync`, nothing to do", sheaf, ["sync"], b),
        ("`git status --porcelain`", "git", ["status", "--porcelain"], d),
        ("`git add -A`, nothing to add", "git", ["add", "-A"], d),
        ("`git fetch -q`, up to date", "git", ["fetch", "-q"], d),
    ]
    let pieceRows = (options.only == nil ? pieces : []).map { name, executable, arguments, directory -> String in
        let t = timed(options.runs) { must(executable, arguments, in: directory) }
        return "| \(name) | \(format(t.median)) | \(t.peakKB / 1024) MB |"
    }

    func ms(_ values: [Double]) -> String {
        guard !values.isEmpty else { return "not run" }
        let sorted = values.sorted()
        return "\(format(median(values))) (\(format(sorted.first ?? 0))-\(format(sorted.last ?? 0)))"
    }
    func ratio(_ a: Double, _ b: Double) -> String { b > 0 ? String(format: "%.2fx", a / b) : "-" }
    func verdict(_ value: Double, _ budget: Double) -> String {
        value <= budget ? String(format: "met (%.2fx of it)", value / budget) : String(format: "**missed** (%.2fx)", value / budget)
    }
    let tenK = options.notes <= 10_000
    let syncBudget = tenK ? 0.150 : 0.400
    // Issue 10's pull budget: a ratio to git pull in the same run, and peak RSS at 100k.
    let pullRatio = tenK ? 1.5 : 2.0
    let pullRatioBudget = tenK ? "≤ 1.5x git" : "≤ 2x git, ≤ 150 MB"
    let measuredRatio = gitPull.isEmpty ? 0 : median(sheafPull) / median(gitPull)
    // The memory budget is Sheaf's own process: the tree's peak is git's fetch of a local remote.
    let ratioMet = measuredRatio <= pullRatio && (tenK || pullOwnPeakKB <= 150 * 1024)
    let ratioVerdict = sheafPull.isEmpty ? "not run" : ratioMet ? "met" : "**missed**"
    var loads = [Double](repeating: 0, count: 3)
    _ = getloadavg(&loads, 3)
    print("""
        Vault: \(options.notes) notes, \(String(format: "%.1f", Double(bytes) / 1e6)) MB of notes; \(options.runs) samples per median \
        (range in brackets), Sheaf and git alternating; \(ProcessInfo.processInfo.activeProcessorCount) cores; \
        load average at the end: \(String(format: "%.2f %.2f %.2f", loads[0], loads[1], loads[2])); first sync (not timed): \
        \(reusing ? "reused set-up" : format(firstSyncSeconds)).

        | work | Sheaf | reference, same run | ratio | budget |
        |---|---|---|---|---|
        | `sheaf sync`, 1 note edited, local bare remote | \(ms(sheafSync)), \(syncPeakKB / 1024) MB peak RSS | `git add -A && git commit && git push`: \(ms(gitSync)) | \(ratio(median(sheafSync), median(gitSync))) | < \(format(syncBudget)): \(verdict(median(sheafSync), syncBudget)) |
        | `sheaf pull` of 100 changed notes, index included | \(ms(sheafPull)), \(pullOwnPeakKB / 1024) MB peak RSS of sheaf (\(pullPeakKB / 1024) MB with its git children) | `git pull -q --no-rebase`: \(ms(gitPull)), \(gitPullPeakKB / 1024) MB peak RSS | \(ratio(median(sheafPull), median(gitPull))) | \(pullRatioBudget): \(ratioVerdict) |
        | CPU (user + system) of those pulls | \(ms(sheafPullCPU)) | \(ms(gitPullCPU)) | \(ratio(median(sheafPullCPU), median(gitPullCPU))) | |
        | mean wall time of those pulls (what they cost together, an index compaction included) | \(format(mean(sheafPull))) | \(format(mean(gitPull))) | \(ratio(mean(sheafPull), mean(gitPull))) | |
        | the same notes in a plain FTS5 table (`fts_reference.py update`, after each `git pull`) | | \(ms(plainUpdate)) | | |
        | `sheaf pull` against `git pull` + that plain FTS5 update (each sample's sum) | \(ms(sheafPull)) | \(ms(gitPlusPlain)) | \(ratio(median(sheafPull), median(gitPlusPlain))) | |

        Checks: `sheaf index` right after each pull: \(ms(afterPullWalk)) (last: "\(lastIndex)"); \
        B at A's commit: \(headA == headB && sameB ? "yes" : "**no**"), D at A's commit: \(headA == headD ? "yes" : "**no**"); \
        last sync said "\(lastSyncOutput.split(separator: "\n").joined(separator: "; "))"; \
        last pull said "\(pulledPaths.last ?? "")".

        | piece, nothing to do (B, D) | median | peak RSS |
        |---|---|---|
        \(pieceRows.joined(separator: "\n"))
        """)
}
