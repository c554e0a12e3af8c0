// `sheaf-bench watch-search`: what a running `sheaf watch` buys a read command. In one run, on
// the same indexed vault, samples alternating: `sheaf search WORD` end to end without a watcher
// (it walks the vault first), the same with an idle watcher (it asks the watcher and skips the
// walk), and `rg -l -i WORD`. Before timing, one `sheaf search -v` checks that the watcher really
// vouched (else the figure would be the walk's). With the watcher, a word most notes hold
// (`--common-word`, default `with`) is timed too, so ranking thousands of matches is measured, and
// `--baseline PATH` times another sheaf binary in the same runs against the same watcher. Then
// the idle watcher's CPU over 10 s and its RSS, from /proc.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

func runWatchSearchBenchmark(options: Options, sheaf: String, pristine: String) {
    let fm = FileManager.default
    func log(_ text: String) { FileHandle.standardError.write(Data("\(text)\n".utf8)) }
    let vault = options.work + "/watch\(options.notes)"
    try? fm.removeItem(atPath: vault)
    must("cp", ["-a", pristine, vault], in: options.work)
    must(sheaf, ["init"], in: vault)
    must(sheaf, ["index"], in: vault)

    log("without a watcher...")
    var plain: [Double] = []
    for _ in 0..<options.runs {
        plain.append(spawn(sheaf, ["search", options.word], in: vault).seconds)
        _ = spawn("rg", ["-l", "-i", options.word], in: vault)  // as with the watcher: rg between searches
    }

    log("starting sheaf watch --no-sync...")
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let watchArguments: [String] = [sheaf, "watch", "--no-sync", "--vault", vault]
    let argv = watchArguments.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    guard posix_spawn(&pid, sheaf, &actions, nil, argv, environ) == 0 else { fail("cannot start sheaf watch") }
    defer { kill(pid, SIGTERM); var status: Int32 = 0; waitpid(pid, &status, 0) }

    // Ready once a search says the watcher vouched (the first scan and thumbnails done).
    let check = { spawn("/bin/sh", ["-c", "\"$0\" search -v \"$1\" 2>&1 >/dev/null", sheaf, options.word], in: vault) }
    var vouched = false
    for _ in 0..<600 where !vouched {
        vouched = check().stdout.contains("the watcher vouches")
        if !vouched { usleep(100_000) }
    }
    guard vouched else { fail("the watcher never vouched for the index") }

    log("with an idle watcher...")
    let words = [options.word, options.commonWord]
    var watched: [String: [Double]] = [:], baselineTimes: [String: [Double]] = [:], rgWords: [String: [Double]] = [:]
    for run in 0..<options.runs {
        for word in words {
            var order = [sheaf] + (options.baseline.map { [$0] } ?? [])
            if run % 2 == 1 { order.reverse() }  // alternate which goes first
            for binary in order {
                let seconds = spawn(binary, ["search", word], in: vault).seconds
                if binary == sheaf { watched[word, default: []].append(seconds) } else { baselineTimes[word, default: []].append(seconds) }
            }
            rgWords[word, default: []].append(spawn("rg", ["-l", "-i", word], in: vault).seconds)
        }
    }
    let holders = Dictionary(uniqueKeysWithValues: words.map { word in
        (word, spawn("rg", ["-l", "-i", word], in: vault).stdout.split(separator: "\n").count)
    })
    let stillVouched = check().stdout.contains("the watcher vouches")

    log("idle watcher for 10 s...")
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    let before = cpuTicks(pid)
    usleep(10_000_000)
    let idleCPU = (cpuTicks(pid) - before) / ticks / 10 * 100
    let rssMB = Double(rssKB(pid)) / 1024

    let tenK = options.notes <= 10_000
    let budget = tenK ? 0.015 : 0.060
    let w = median(watched[options.word] ?? []), p = median(plain)
    func range(_ samples: [Double]) -> String {
        String(format: "%.1f-%.1f ms", (samples.min() ?? 0) * 1000, (samples.max() ?? 0) * 1000)
    }
    var rows: [String] = []
    for word in words {
        let times = watched[word] ?? [], mine = median(times), rgMedian = median(rgWords[word] ?? [])
        rows.append("| `sheaf search \(word)` (\(holders[word] ?? 0) files hold it), idle watcher | \(format(mine)) (\(range(times))) | `rg -l -i \(word)`: \(format(rgMedian)) | \(String(format: "%.2fx", mine / rgMedian)) | ≤ \(Int(budget * 1000)) ms: \(mine <= budget ? "met" : String(format: "**missed** (%.1fx)", mine / budget)) |")
        if let baseline = options.baseline, let old = baselineTimes[word] {
            rows.append("| `\(baseline) search \(word)`, same watcher, same runs | \(format(median(old))) (\(range(old))) | this sheaf: \(format(mine)) | \(String(format: "%.2fx", median(old) / mine)) | - |")
        }
    }
    print("""
        Vault: \(options.notes) notes; \(options.runs) runs per median, samples alternating; \
        \(ProcessInfo.processInfo.activeProcessorCount) cores; load average at the end: \(String(format: "%.2f", loadAverage())).
        The watcher vouched for every timed search's index: \(stillVouched ? "yes" : "**no** (figures may include walks)").

        | work | Sheaf | reference, same run | ratio | budget |
        |---|---|---|---|---|
        \(rows.joined(separator: "\n"))
        | `sheaf search \(options.word)`, no watcher | \(format(p)) | idle watcher: \(format(w)) | \(String(format: "%.2fx", p / w)) | - |
        | idle watcher CPU over 10 s | \(String(format: "%.2f", idleCPU)) % | - | - | < 1 %: \(idleCPU < 1 ? "met" : "**missed**") |
        | idle watcher RSS | \(String(format: "%.0f", rssMB)) MB | - | - | ≤ 100 MB at 100k: \(rssMB <= 100 ? "met" : "**missed**") |
        """)
}

/// utime + stime of a process, in clock ticks.
private func cpuTicks(_ pid: pid_t) -> Double {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = text.lastIndex(of: ")") else { return 0 }
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 12 else { return 0 }
    return (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
}

/// VmRSS of a process, in KB.
private func rssKB(_ pid: pid_t) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return 0
}
