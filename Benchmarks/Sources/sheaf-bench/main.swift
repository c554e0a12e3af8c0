// The release benchmarks of the performance budgets (docs/budgets.md), each next to its reference
// measured in the same run: the plain FTS5 bulk load (fts_reference.py) for indexing, `rg -l -i`
// for search, git's own CLI for sync and pull (`sheaf-bench sync`, SyncBench.swift), and process
// start next to git and rg (`sheaf-bench start`, StartBench.swift). Every figure is a whole
// process, from spawn to exit, timed here; peak RSS comes from wait4.
//
//   swift run -c release --package-path Benchmarks sheaf-bench [sync|start] --notes 10000 [--sheaf PATH]
//   swift run -c release --package-path Benchmarks sheaf-bench watch-search --notes 10000 (WatchBench.swift)
//   swift run -c release --package-path Benchmarks sheaf-bench watch-sync --notes 1000 [--runs 50] (WatchSyncBench.swift)
//   swift run -c release --package-path Benchmarks sheaf-bench hash [--megabytes 512] (HashBench.swift)
//   swift run -c release --package-path Benchmarks sheaf-bench floors --notes 10000 [--rows walk,search] (FloorsBench.swift)
//       [--runs 7] [--word running] [--common-word with] [--baseline SHEAF] [--work /tmp/sheaf-bench] [--vault GENERATED]
//       sync only: [--reuse] (keep WORK/sync<N> from an earlier run) [--only pull|sync]
//
// Without --sheaf it builds sheaf in release first. Vaults are generated once under the work
// folder (`v<N>`, seed 1) and copied for each run, so the generated vault is never modified.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

struct Options {
    /// "index" (index, walk, search), "sync" (sync and pull against git's CLI), "start"
    /// (process start, small search and merge-file against git and rg, and the libraries mapped)
    /// "watch-search" (search with an idle `sheaf watch` against without and rg) or "watch-sync"
    /// (a save's way from one watched clone to another, against git by hand).
    var mode = "index"
    var notes = 10_000
    /// Whether --notes and --runs were given (`start` has its own defaults).
    var notesGiven = false
    var runsGiven = false
    /// A vault generated earlier with `--notes N --seed 1`, copied instead of DIR/v<N>.
    var vault: String?
    var sheaf: String?
    var runs = 7
    var word = "running"
    /// `watch-search`: a word most notes hold (the search ranks thousands of matches).
    var commonWord = "with"
    /// `watch-search`: another sheaf binary timed in the same runs, against the same watcher.
    var baseline: String?
    var work = "/tmp/sheaf-bench"
    /// `hash` mode: the size of the file hashed.
    var megabytes = 512
    /// `sync` mode: keep `WORK/sync<N>` from an earlier run (its vaults, clones and index) instead
    /// of building it again; the 100k set-up takes minutes.
    var reuse = false
    /// `sync` mode: run only "pull" (the pull samples and their checks) or only "sync".
    var only: String?
    /// `floors` mode: the rows to run (`--rows clone,commit,...`), all without it.
    var rows: [String]?

    init(_ arguments: [String]) {
        var i = 0
        if ["sync", "index", "hash", "start", "watch-search", "watch-sync", "floors"].contains(arguments.first ?? "") { mode = arguments[0]; i = 1 }
        func value() -> String {
            i += 1
            guard i < arguments.count else { fail("\(arguments[i - 1]) needs a value") }
            return arguments[i]
        }
        while i < arguments.count {
            switch arguments[i] {
            case "--notes": notes = Int(value()) ?? notes; notesGiven = true
            case "--sheaf": sheaf = value()
            case "--runs": runs = max(1, Int(value()) ?? runs); runsGiven = true
            case "--word": word = value()
            case "--common-word": commonWord = value()
            case "--baseline": baseline = value()
            case "--work": work = value()
            case "--vault": vault = value()
            case "--megabytes": megabytes = Int(value()) ?? megabytes
            case "--reuse": reuse = true
            case "--rows": rows = value().split(separator: ",").map(String.init)
            case "--only":
                let part = value()
                guard ["pull", "sync"].contains(part) else { fail("--only takes pull or sync") }
                only = part
            default: fail("unknown argument \(arguments[i])")
            }
            i += 1
        }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("sheaf-bench: \(message)\n".utf8))
    exit(2)
}

/// One finished process.
struct Run {
    let seconds: Double
    let peakKB: Int
    let status: Int32
    let stdout: String
    /// User plus system CPU time: moves less than wall time with the load of a shared machine.
    let cpuSeconds: Double
    /// The process's own peak RSS without its children (`VmHWM`, sampled every 2 ms while it
    /// ran), when asked for: `peakKB` (`wait4`) is the largest process of the whole tree.
    var ownPeakKB: Int = 0
}

/// Samples a running process's own peak RSS (`VmHWM` in /proc/PID/status) until stopped.
final class PeakSampler: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var peak = 0
    private let done = DispatchSemaphore(value: 0)

    init(pid: pid_t) {
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                   let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                   let kb = Int(line.split(separator: " ").dropFirst().first ?? "") {
                    lock.withLock { peak = max(peak, kb) }
                }
                usleep(2_000)
            }
            done.signal()
        }
    }

    /// Stops sampling; the highest value seen.
    func stop() -> Int {
        lock.withLock { running = false }
        done.wait()
        return lock.withLock { peak }
    }
}

/// Spawns `executable` in `directory` and waits for it, with its wall time and peak RSS.
func spawn(_ executable: String, _ arguments: [String], in directory: String, sampleOwnPeak: Bool = false) -> Run {
    let outPath = NSTemporaryDirectory() + "sheaf-bench-\(getpid())-out"
    defer { unlink(outPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    // The child starts in `directory` (this program is single-threaded, so chdir is safe here).
    let previous = FileManager.default.currentDirectoryPath
    guard chdir(directory) == 0 else { fail("cannot enter \(directory)") }
    defer { _ = chdir(previous) }
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    let rc = posix_spawnp(&pid, executable, &actions, nil, argv, environ)
    guard rc == 0 else { fail("cannot start \(executable): \(String(cString: strerror(rc)))") }
    let sampler = sampleOwnPeak ? PeakSampler(pid: pid) : nil
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let ownPeak = sampler?.stop() ?? 0
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
    let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    return Run(seconds: seconds, peakKB: usage.ru_maxrss, status: exitStatus, stdout: out, cpuSeconds: cpu, ownPeakKB: ownPeak)
}

/// Runs a command that must succeed.
@discardableResult
func must(_ executable: String, _ arguments: [String], in directory: String, sampleOwnPeak: Bool = false) -> Run {
    let run = spawn(executable, arguments, in: directory, sampleOwnPeak: sampleOwnPeak)
    guard run.status == 0 else { fail("\(executable) \(arguments.joined(separator: " ")) exited \(run.status)") }
    return run
}

/// The arithmetic mean (0 for no values).
func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func timed(_ runs: Int, _ body: () -> Run) -> (median: Double, peakKB: Int) {
    var times: [Double] = []
    var peak = 0
    for _ in 0..<runs {
        let run = body()
        times.append(run.seconds)
        peak = max(peak, run.peakKB)
    }
    return (median(times), peak)
}

func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
}

/// Bytes of every note below `root`, skipping dot-folders as Sheaf does.
func notesBytes(_ root: String) -> Int {
    var total = 0
    let enumerator = FileManager.default.enumerator(atPath: root)
    while let path = enumerator?.nextObject() as? String {
        if path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            if (path as NSString).lastPathComponent.hasPrefix(".") { enumerator?.skipDescendants() }
            continue
        }
        if path.hasSuffix(".md") { total += fileSize(root + "/" + path) }
    }
    return total
}

func format(_ seconds: Double) -> String {
    seconds < 1 ? String(format: "%.0f ms", seconds * 1000) : String(format: "%.2f s", seconds)
}

// MARK: - The run

let options = Options(Array(CommandLine.arguments.dropFirst()))
let benchDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let repository = benchDirectory.deletingLastPathComponent().path
let generator = benchDirectory.appendingPathComponent("generate_vault.py").path
let reference = benchDirectory.appendingPathComponent("fts_reference.py").path

if options.mode == "hash" {
    runHashBenchmark(options: options)
    exit(0)
}

let sheaf: String
if let given = options.sheaf {
    sheaf = given.hasPrefix("/") ? given : FileManager.default.currentDirectoryPath + "/" + given
} else {
    // Built as scripts/install builds it: the Swift runtime and Foundation linked in.
    FileHandle.standardError.write(Data("building sheaf (release, --static-swift-stdlib)...\n".utf8))
    must("swift", ["build", "-c", "release", "--static-swift-stdlib", "--product", "sheaf"], in: repository)
    must("swift", ["build", "-c", "release", "--static-swift-stdlib", "--product", "sheaf-thumbnailer"], in: repository)
    sheaf = repository + "/.build/release/sheaf"
}

try? FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
if options.mode == "start" {
    runStartBenchmark(options: options, sheaf: sheaf, generator: generator)
    exit(0)
}
let pristine = options.vault.map { $0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0 }
    ?? options.work + "/v\(options.notes)"
if !FileManager.default.fileExists(atPath: pristine) {
    FileHandle.standardError.write(Data("generating \(options.notes) notes in \(pristine)...\n".utf8))
    must("python3", [generator, "--notes", String(options.notes), "--seed", "1", pristine], in: options.work)
}
if options.mode == "sync" {
    runSyncBenchmark(options: options, sheaf: sheaf, pristine: pristine, generator: generator)
    exit(0)
}
if options.mode == "floors" {
    runFloorsBenchmark(options: options, sheaf: sheaf, pristine: pristine, generator: generator, reference: reference)
    exit(0)
}
if options.mode == "watch-search" {
    runWatchSearchBenchmark(options: options, sheaf: sheaf, pristine: pristine)
    exit(0)
}
if options.mode == "watch-sync" {
    runWatchSyncBenchmark(options: options, sheaf: sheaf, pristine: pristine)
    exit(0)
}
let vault = options.work + "/work\(options.notes)"
try? FileManager.default.removeItem(atPath: vault)
must("cp", ["-a", pristine, vault], in: options.work)
must(sheaf, ["init"], in: vault)
let bytes = notesBytes(vault)

FileHandle.standardError.write(Data("cold index...\n".utf8))
let cold = must(sheaf, ["index"], in: vault)
let indexPath = vault + "/.sheaf/index.sqlite"
// The size counts the WAL too, whatever has not been checkpointed yet.
let indexBytes = fileSize(indexPath) + fileSize(indexPath + "-wal")

FileHandle.standardError.write(Data("reference FTS5 load...\n".utf8))
let referenceDB = options.work + "/ref\(options.notes).sqlite"
try? FileManager.default.removeItem(atPath: referenceDB)
let referenceRun = must("python3", [reference, vault, referenceDB], in: options.work)
let referenceJSON = (try? JSONSerialization.jsonObject(with: Data(referenceRun.stdout.utf8))) as? [String: Any]
let referenceSeconds = referenceJSON?["seconds"] as? Double ?? referenceRun.seconds
try? FileManager.default.removeItem(atPath: referenceDB)

FileHandle.standardError.write(Data("no-change walk...\n".utf8))
var walkInside: [Double] = []  // the scan's own figure ("... in 0.04 s"), without process start
let walk = timed(options.runs) {
    let run = must(sheaf, ["index"], in: vault)
    if let range = run.stdout.range(of: #"in ([0-9.]+) s"#, options: .regularExpression) {
        walkInside.append(Double(run.stdout[range].dropFirst(3).dropLast(2)) ?? 0)
    }
    return run
}
let version = timed(options.runs) { must(sheaf, ["--version"], in: vault) }

FileHandle.standardError.write(Data("100 edits...\n".utf8))
must("python3", [generator, "--edit", "100", "--seed", "7", vault], in: options.work)
let incremental = must(sheaf, ["index"], in: vault)

FileHandle.standardError.write(Data("search...\n".utf8))
let search = timed(options.runs) { spawn(sheaf, ["search", options.word], in: vault) }
let rg = timed(options.runs) { spawn("rg", ["-l", "-i", options.word], in: vault) }

func ratio(_ a: Double, _ b: Double) -> String { String(format: "%.2fx", a / b) }
func verdict(_ value: Double, _ budget: Double) -> String {
    value <= budget ? "met" : String(format: "**missed** (%.1fx)", value / budget)
}
let tenK = options.notes <= 10_000
print("""
    Vault: \(options.notes) notes, \(String(format: "%.1f", Double(bytes) / 1e6)) MB of notes; \(options.runs) runs per median; \
    \(ProcessInfo.processInfo.activeProcessorCount) cores; load average at the end: \(String(format: "%.2f", loadAverage())).

    | work | Sheaf | reference, same run | ratio | budget |
    |---|---|---|---|---|
    | cold index (`sheaf index` after `init`) | \(format(cold.seconds)), \(cold.peakKB / 1024) MB peak RSS | FTS5 bulk load: \(format(referenceSeconds)) | \(ratio(cold.seconds, referenceSeconds)) | \(tenK ? "< 1.5 s: " + verdict(cold.seconds, 1.5) : "< 15 s, < 300 MB: " + verdict(cold.seconds, 15) + (cold.peakKB / 1024 < 300 ? "" : ", RSS missed")) |
    | no-change freshness walk (`sheaf index`, process) | \(format(walk.median)) (scan alone \(format(walkInside.isEmpty ? 0 : median(walkInside)))) | `sheaf --version` (process start): \(format(version.median)) | \(ratio(walk.median, version.median)) | \(tenK ? "< 20 ms: " + verdict(walk.median, 0.020) : "< 200 ms: " + verdict(walk.median, 0.200)) |
    | incremental index after 100 edits (process) | \(format(incremental.seconds)) | - | - | - |
    | `sheaf search \(options.word)` end to end | \(format(search.median)) | `rg -l -i \(options.word)`: \(format(rg.median)) | \(ratio(search.median, rg.median)) | \(tenK ? "< 35 ms: " + verdict(search.median, 0.035) : "< 250 ms without watch: " + verdict(search.median, 0.250)) |
    | index size | \(String(format: "%.1f", Double(indexBytes) / 1e6)) MB | notes: \(String(format: "%.1f", Double(bytes) / 1e6)) MB | \(ratio(Double(indexBytes), Double(bytes))) | <= 1.0x: \(indexBytes <= bytes ? "met" : "**missed**") |
    """)

func loadAverage() -> Double {
    var loads = [Double](repeating: 0, count: 3)
    return getloadavg(&loads, 3) > 0 ? loads[0] : 0
}
