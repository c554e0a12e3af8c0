// `sheaf-bench watch-sync`: how long a save in one clone takes to reach another clone's file when
// both run `sheaf watch --interval 2` on one bare repository on this machine (the issue's budget:
// under 6 s at p95 over 50 saves). Each save appends a unique word to one note of clone A, and
// the time runs until clone B's file holds it; the next save waits until then, plus half a second
// (saves closer together than the quiet period would be one sync, by design). The reference in
// the same run is plain git doing the same hand-over by hand: `git commit -a && git push` in one
// clone, `git pull` in another, with no waiting for quiet or for a fetch interval.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

func runWatchSyncBenchmark(options: Options, sheaf: String, pristine: String) {
    let fm = FileManager.default
    func log(_ text: String) { FileHandle.standardError.write(Data("\(text)\n".utf8)) }
    let saves = options.runsGiven ? options.runs : 50
    let root = options.work + "/watch-sync\(options.notes)"
    try? fm.removeItem(atPath: root)
    try? fm.createDirectory(atPath: root, withIntermediateDirectories: true)
    let bare = root + "/remote.git", a = root + "/a", b = root + "/b"
    must("git", ["init", "-q", "--bare", "-b", "main", bare], in: root)
    must("cp", ["-a", pristine, a], in: root)
    must(sheaf, ["init"], in: a)
    must(sheaf, ["config", "set", "device", "a"], in: a)
    must(sheaf, ["remote", "add", "origin", bare], in: a)
    must(sheaf, ["sync"], in: a)
    must(sheaf, ["clone", bare, b], in: root)
    must(sheaf, ["config", "set", "device", "b"], in: b)
    let note = (try? fm.contentsOfDirectory(atPath: a))?.sorted().first { $0.hasSuffix(".md") }
    guard let note else { fail("no note at the top of the generated vault") }

    // The reference: git's own hand-over, by hand, between two plain clones of the same remote.
    log("git by hand...")
    let gitA = root + "/git-a", gitB = root + "/git-b"
    must("git", ["clone", "-q", bare, gitA], in: root)
    must("git", ["clone", "-q", bare, gitB], in: root)
    var gitTimes: [Double] = []
    for i in 0..<min(saves, 10) {
        appendLine("git hand-over \(i)", to: gitA + "/" + note)
        let start = now()
        must("git", ["-c", "user.name=a", "-c", "user.email=a@example.invalid", "commit", "-qam", "save \(i)"], in: gitA)
        must("git", ["push", "-q", "origin", "main"], in: gitA)
        must("git", ["-c", "user.name=b", "-c", "user.email=b@example.invalid", "pull", "-q", "--no-rebase", "origin", "main"], in: gitB)
        gitTimes.append(now() - start)
    }

    log("starting two watchers (--interval 2)...")
    let watchers = [a, b].map { startWatcher(sheaf, vault: $0, options: ["--interval", "2"]) }
    defer { for pid in watchers { kill(pid, SIGTERM); var status: Int32 = 0; waitpid(pid, &status, 0) } }
    for vault in [a, b] {
        var ready = false
        for _ in 0..<600 where !ready {
            ready = spawn("/bin/sh", ["-c", "\"$0\" search -v x 2>&1 >/dev/null", sheaf], in: vault).stdout.contains("the watcher vouches")
            if !ready { usleep(100_000) }
        }
        guard ready else { fail("the watcher of \(vault) never vouched for its index") }
    }
    usleep(4_000_000)  // the first syncs at start are over

    log("\(saves) saves in a, each until b's file has it...")
    var latencies: [Double] = []
    var lost = 0
    for i in 0..<saves {
        let word = "handover\(i)x\(UInt32.random(in: 0...UInt32.max))"
        appendLine(word, to: a + "/" + note)
        let start = now()
        var arrived = false
        while now() - start < 60 {
            if (try? String(contentsOfFile: b + "/" + note, encoding: .utf8))?.contains(word) == true { arrived = true; break }
            usleep(20_000)
        }
        if arrived { latencies.append(now() - start) } else { lost += 1 }
        usleep(500_000)
    }
    latencies.sort()
    func percentile(_ p: Double) -> Double {
        latencies.isEmpty ? .infinity : latencies[min(latencies.count - 1, Int((Double(latencies.count) * p).rounded(.up)) - 1)]
    }
    let p50 = percentile(0.5), p95 = percentile(0.95)
    print("""
        Vault: \(options.notes) notes; \(saves) saves, one at a time; both clones run `sheaf watch --interval 2` \
        (quiet period 3 s) on one bare repository on this machine; \(ProcessInfo.processInfo.activeProcessorCount) cores; \
        load average at the end: \(String(format: "%.2f", loadAverage())).

        | work | Sheaf | reference, same run | ratio | budget |
        |---|---|---|---|---|
        | a save in clone A in clone B's file, p95 | \(String(format: "%.2f s", p95)) (p50 \(String(format: "%.2f s", p50)), max \(String(format: "%.2f s", latencies.last ?? .infinity))\(lost > 0 ? ", **\(lost) never arrived**" : "")) | git commit+push, pull by hand: \(format(median(gitTimes))) | \(String(format: "%.1fx", p95 / median(gitTimes))) | < 6 s at p95: \(p95 < 6 && lost == 0 ? "met" : "**missed**") |
        """)
}

private func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func appendLine(_ line: String, to path: String) {
    guard let handle = FileHandle(forWritingAtPath: path) else { fail("cannot open \(path)") }
    handle.seekToEndOfFile()
    handle.write(Data("\n\(line)\n".utf8))
    handle.closeFile()
}

/// `sheaf watch OPTIONS --vault VAULT`, its output discarded; the caller stops it.
func startWatcher(_ sheaf: String, vault: String, options: [String]) -> pid_t {
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let words: [String] = [sheaf, "watch"] + options + ["--vault", vault]
    let argv = words.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    guard posix_spawn(&pid, sheaf, &actions, nil, argv, environ) == 0 else { fail("cannot start sheaf watch") }
    return pid
}
