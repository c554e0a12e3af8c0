// `sheaf-bench floors`: issue 28's table in one run. Every live path of Sheaf next to what git,
// ripgrep and SQLite alone take for the same work on an identical copy, measured in the same run
// (the floors are run here, never quoted), with each ratio against its goal. Samples alternate
// which side goes first; between samples the background work either side left (git's detached
// `gc --auto`, Sheaf's `sheaf housekeep`) is waited for untimed, so no sample pays for another's.
// `--baseline PATH` times another sheaf binary beside `--sheaf` on the rows that compare a command
// the two share (before/after figures of one run). `--rows clone,commit,sync,pull,walk,search,
// watch,start,mv,attach,index` runs some rows only (the shared set-up still runs). The attach row
// needs `sheaf-thumbnailer` beside each sheaf binary.
//
// The merge driver's row (344 merges from public histories) is not here: its corpus is not
// synthetic; `sheaf-bench start` times the driver on a small merge beside `git merge-file -p`.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

func runFloorsBenchmark(options: Options, sheaf: String, pristine: String, generator: String, reference: String) {
    for (key, value) in ["GIT_AUTHOR_NAME": "sheaf-bench", "GIT_AUTHOR_EMAIL": "bench@sheaf.invalid",
                         "GIT_COMMITTER_NAME": "sheaf-bench", "GIT_COMMITTER_EMAIL": "bench@sheaf.invalid"] {
        setenv(key, value, 1)
    }
    let fm = FileManager.default
    func log(_ text: String) { FileHandle.standardError.write(Data("\(text)\n".utf8)) }
    let work = options.work + "/floors\(options.notes)"
    try? fm.removeItem(atPath: work)
    try? fm.createDirectory(atPath: work, withIntermediateDirectories: true)
    let binaries = [sheaf] + (options.baseline.map { [$0] } ?? [])
    let wanted = options.rows.map { Set($0) }
    func wants(_ row: String) -> Bool { wanted?.contains(row) ?? true }
    // The whole-vault rows (clone, first commit, cold index) cost seconds to minutes a sample.
    let heavyRuns = options.notes >= 50_000 ? 1 : min(3, options.runs)
    var rows: [FloorRow] = []

    /// Waits, untimed, until no process started in `folder` is still running (a detached gc).
    func settle(_ folder: String) { waitForBackgroundWork(under: folder) }

    // MARK: Cold index and the first commit of an adopted vault
    if wants("index") {
        log("cold index against a plain FTS5 load, on two cores and on one...")
        var row = FloorRow(work: "cold `sheaf index`", floor: "`fts_reference.py` (plain FTS5 load)", goal: 1.0)
        // The goal is stated for one core: Sheaf and the floors pinned to CPU 0 (`taskset`), where
        // CPU time is the time. The second floor is the plain FTS5 index of what Sheaf's one table
        // answers (stems and words as written: `fts_reference.py --exact`).
        var oneCore = FloorRow(work: "cold `sheaf index`, one core", floor: "`fts_reference.py`, one core", goal: 1.0)
        var sameAnswers = FloorRow(work: "cold `sheaf index`, one core",
                                   floor: "`fts_reference.py --exact` (plain FTS5 of stems and words), one core", goal: 1.0)
        func floorSeconds(_ arguments: [String], _ k: Int, pinned: Bool) -> Double {
            let db = work + "/ref-\(k).sqlite"
            defer { try? fm.removeItem(atPath: db) }
            let command = [reference, pristine, db] + arguments
            let ref = pinned ? must("taskset", ["-c", "0", "python3"] + command, in: work) : must("python3", command, in: work)
            let json = (try? JSONSerialization.jsonObject(with: Data(ref.stdout.utf8))) as? [String: Any]
            return json?["seconds"] as? Double ?? ref.seconds
        }
        for k in 0..<heavyRuns {
            for pinned in [false, true] {
                for (b, binary) in binaries.enumerated() {
                    let vault = work + "/index-\(b)"
                    try? fm.removeItem(atPath: vault)
                    must("cp", ["-a", pristine, vault], in: work)
                    must(binary, ["init"], in: vault)
                    let run = pinned ? must("taskset", ["-c", "0", binary, "index"], in: vault) : must(binary, ["index"], in: vault)
                    if pinned { oneCore.add(b, run.seconds, peakKB: run.peakKB) } else { row.add(b, run.seconds, peakKB: run.peakKB) }
                    settle(vault)
                    try? fm.removeItem(atPath: vault)
                }
            }
            row.floor.append(floorSeconds([], k, pinned: false))
            oneCore.floor.append(floorSeconds([], k, pinned: true))
            sameAnswers.floor.append(floorSeconds(["--exact"], k, pinned: true))
        }
        sameAnswers.sheaf = oneCore.sheaf
        sameAnswers.peakKB = oneCore.peakKB
        rows += [row, oneCore, sameAnswers]
    }
    if wants("commit") {
        log("first commit of an adopted vault against git add -A && git commit...")
        var row = FloorRow(work: "first `sheaf commit` of an adopted vault", floor: "`git add -A && git commit`", goal: 1.5)
        for k in 0..<heavyRuns {
            let g = work + "/adopt-git"
            try? fm.removeItem(atPath: g)
            must("cp", ["-a", pristine, g], in: work)
            must("git", ["init", "-q", "-b", "main"], in: g)
            func gitSample() {
                let add = must("git", ["add", "-A"], in: g), commit = must("git", ["commit", "-qm", "adopt"], in: g)
                row.floor.append(add.seconds + commit.seconds)
                settle(g)
            }
            if k % 2 == 1 { gitSample() }
            for (b, binary) in binaries.enumerated() {
                let vault = work + "/adopt-\(b)"
                try? fm.removeItem(atPath: vault)
                must("cp", ["-a", pristine, vault], in: work)
                must(binary, ["init"], in: vault)
                let run = must(binary, ["commit", "-q"], in: vault)
                row.add(b, run.seconds, peakKB: run.peakKB)
                settle(vault)
                try? fm.removeItem(atPath: vault)
            }
            if k % 2 == 0 { gitSample() }
            try? fm.removeItem(atPath: g)
        }
        rows.append(row)
    }

    // MARK: The shared set-up: A pushes to a bare remote; B is its sheaf clone, D its git clone.
    log("set-up: A (init, index, first sync), the bare remote...")
    let remote = work + "/remote.git", a = work + "/A", b = work + "/B", d = work + "/D", g = work + "/G"
    must("git", ["init", "-q", "--bare", "-b", "main", remote], in: work)
    must("cp", ["-a", pristine, a], in: work)
    must(sheaf, ["init"], in: a)
    must(sheaf, ["index"], in: a)
    must(sheaf, ["remote", "add", "origin", remote], in: a)
    must(sheaf, ["sync"], in: a)
    settle(a)

    // MARK: Clone
    log("clone against git clone + a plain FTS5 load...")
    // From a path, `git clone` hard-links the remote's object files and checks none of them;
    // Sheaf's clone fetches through upload-pack and index-pack, which hash every object, as
    // `git clone --no-local` (and any clone over the network) does. Both floors are measured.
    var clone = FloorRow(work: "`sheaf clone`", floor: "`git clone` + plain FTS5 load", goal: 1.2)
    var cloneVerified = FloorRow(work: "`sheaf clone`, against a clone that checks the objects",
                                 floor: "`git clone --no-local` + plain FTS5 load", goal: 1.2)
    let cloneRuns = wants("clone") ? heavyRuns : 1
    for k in 0..<cloneRuns {
        func gitSample() {
            try? fm.removeItem(atPath: d)
            let run = must("git", ["clone", "-q", remote, d], in: work)
            let db = work + "/clone-ref.sqlite"
            try? fm.removeItem(atPath: db)
            let ref = must("python3", [reference, d, db], in: work)
            let json = (try? JSONSerialization.jsonObject(with: Data(ref.stdout.utf8))) as? [String: Any]
            let load = json?["seconds"] as? Double ?? ref.seconds
            clone.floor.append(run.seconds + load)
            try? fm.removeItem(atPath: d)
            let verified = must("git", ["clone", "-q", "--no-local", remote, d], in: work)
            cloneVerified.floor.append(verified.seconds + load)
            settle(d)
        }
        if k % 2 == 1 { gitSample() }
        for (i, binary) in binaries.enumerated() {
            try? fm.removeItem(atPath: b)
            let run = must(binary, ["clone", remote, b], in: work)
            clone.add(i, run.seconds, peakKB: run.peakKB)
            cloneVerified.add(i, run.seconds, peakKB: run.peakKB)
            settle(b)
        }
        if k % 2 == 0 { gitSample() }
    }
    if wants("clone") { rows += [clone, cloneVerified] }

    // MARK: The no-change freshness walk, search, process start (B and D hold the same commit)
    func alternate(_ row: inout FloorRow, _ arguments: [String], in dir: String, floor: () -> Double) {
        for k in 0..<options.runs {
            if k % 2 == 1 { row.floor.append(floor()) }
            let order = k % 2 == 0 ? Array(binaries.indices) : binaries.indices.reversed()
            for i in order {
                let run = spawn(binaries[i], arguments, in: dir)
                row.add(i, run.seconds, peakKB: run.peakKB)
            }
            if k % 2 == 0 { row.floor.append(floor()) }
        }
    }
    if wants("walk") {
        log("no-change walk against git status...")
        must(sheaf, ["index"], in: b)
        var row = FloorRow(work: "no-change freshness walk (`sheaf index`)", floor: "`git status --porcelain`", goal: 1.2)
        alternate(&row, ["index"], in: b) { must("git", ["status", "--porcelain"], in: d).seconds }
        rows.append(row)
    }
    let words = [options.word, options.commonWord]
    func holders(_ word: String, _ dir: String) -> Int {
        spawn("rg", ["-l", "-i", word], in: dir).stdout.split(separator: "\n").count
    }
    /// An indexed search's floor: SQLite's own command line answering the query from a plain
    /// FTS5 index of the notes (`fts_reference.py`), best 20 with a snippet each, as `sheaf
    /// search` prints them. No Swift, no catalog, no freshness check: what any program that
    /// answers from an FTS5 index pays, start included.
    let indexedFloorName = "`sqlite3`, FTS5 query with `snippet()` on a plain index"
    func plainIndex(of dir: String, at db: String) {
        try? fm.removeItem(atPath: db)
        must("python3", [reference, dir, db], in: work)
    }
    func indexedFloor(_ db: String, _ word: String, in dir: String) -> Double {
        let sql = "SELECT path, snippet(notes, 2, '', '', '…', 20) FROM notes WHERE notes MATCH '\(word)' ORDER BY rank LIMIT 20"
        return must("sqlite3", [db, sql], in: dir).seconds
    }
    if wants("search") {
        log("search without a watcher against rg...")
        for word in words {
            var row = FloorRow(work: "`sheaf search \(word)`, no watcher (\(holders(word, b)) notes hold it)", floor: "`rg -l -i \(word)`", goal: 1.0)
            alternate(&row, ["search", word], in: b) { spawn("rg", ["-l", "-i", word], in: b).seconds }
            rows.append(row)
        }
        let small = options.work + "/v200"
        if !fm.fileExists(atPath: small) {
            must("python3", [generator, "--notes", "200", "--seed", "1", small], in: options.work)
        }
        let s = work + "/small"
        must("cp", ["-a", small, s], in: work)
        must(sheaf, ["init"], in: s)
        must(sheaf, ["index"], in: s)
        var row = FloorRow(work: "`sheaf search \(options.word)`, no watcher, 200 notes", floor: "`rg -l -i \(options.word)`", goal: 1.0)
        alternate(&row, ["search", options.word], in: s) { spawn("rg", ["-l", "-i", options.word], in: s).seconds }
        rows.append(row)
        let smallDB = work + "/plain-200.sqlite"
        plainIndex(of: small, at: smallDB)
        var indexed = FloorRow(work: "`sheaf search \(options.word)`, no watcher, 200 notes", floor: indexedFloorName, goal: 1.0)
        alternate(&indexed, ["search", options.word], in: s) { indexedFloor(smallDB, options.word, in: s) }
        rows.append(indexed)
    }
    // What every process that reads git through libgit2 pays before its first git call, Sheaf or
    // not: loading the library (and the libraries it needs: ssh2, mbedTLS, Kerberos, OpenSSL, ...) and `git_libgit2_init`, which in Debian's
    // build (mbedTLS) parses every certificate of the system's CA bundle. Timed inside a Python
    // process (ctypes), so the interpreter's own start is not counted.
    var libgit2Start: (load: [Double], initialise: [Double]) = ([], [])
    if wants("start") {
        log("process start against git --version...")
        var row = FloorRow(work: "process start (`sheaf --version`)", floor: "`git --version`", goal: 4.0)
        alternate(&row, ["--version"], in: b) { must("git", ["--version"], in: d).seconds }
        rows.append(row)
        let script = """
            import ctypes, time
            t0 = time.perf_counter(); lib = ctypes.CDLL("libgit2.so.1.5")
            t1 = time.perf_counter(); lib.git_libgit2_init()
            t2 = time.perf_counter(); print(t1 - t0, t2 - t1)
            """
        for _ in 0..<options.runs {
            let parts = must("python3", ["-c", script], in: d).stdout.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if parts.count == 2 { libgit2Start.load.append(parts[0]); libgit2Start.initialise.append(parts[1]) }
        }
    }

    // MARK: Sync of one edited note: A against G, a git clone of a copy of the remote.
    var notes: [String] = []
    if let enumerator = fm.enumerator(atPath: a) {
        while let path = enumerator.nextObject() as? String {
            if (path as NSString).lastPathComponent.hasPrefix(".") { enumerator.skipDescendants(); continue }
            if path.hasSuffix(".md") { notes.append(path) }
        }
    }
    notes.sort()
    if wants("sync") {
        log("sync of 1 edited note against git add, commit, push...")
        let gitRemote = work + "/remote-git.git"
        must("cp", ["-a", remote, gitRemote], in: work)
        must("git", ["clone", "-q", gitRemote, g], in: work)
        var row = FloorRow(work: "`sheaf sync`, 1 edited note", floor: "`git add -A; git commit; git push`", goal: 1.2)
        for k in 0..<options.runs {
            let note = notes[(k * 7919 + 11) % notes.count]
            func gitSample() {
                appendLine("floors sync edit \(k)", to: g + "/" + note)
                let add = must("git", ["add", "-A"], in: g), commit = must("git", ["commit", "-qm", "x"], in: g)
                let push = must("git", ["push", "-q"], in: g)
                row.floor.append(add.seconds + commit.seconds + push.seconds)
                settle(g)
            }
            if k % 2 == 1 { gitSample() }
            for (i, binary) in binaries.enumerated() {
                appendLine("floors sync edit \(k) by \(i)", to: a + "/" + note)
                let run = must(binary, ["sync"], in: a)
                row.add(i, run.seconds, peakKB: run.peakKB)
                settle(a)
            }
            if k % 2 == 0 { gitSample() }
        }
        rows.append(row)
    }

    // MARK: Pull of 100 changed notes: B against D + the same notes in a plain FTS5 table.
    if wants("pull") {
        log("pull of 100 changed notes against git pull + a plain FTS5 update...")
        must(sheaf, ["pull"], in: b)
        must("git", ["pull", "-q", "--no-rebase"], in: d)
        // Each binary pulls into a clone of its own (a second would find the first's pulled).
        var pullers = [b]
        for (i, binary) in binaries.enumerated().dropFirst() {
            let clone = work + "/B\(i)"
            try? fm.removeItem(atPath: clone)
            must(binary, ["clone", remote, clone], in: work)
            pullers.append(clone)
        }
        for dir in pullers + [d] { settle(dir) }
        let plainDB = work + "/plain-fts.sqlite"
        try? fm.removeItem(atPath: plainDB)
        must("python3", [reference, d, plainDB], in: work)
        var row = FloorRow(work: "`sheaf pull` of 100 changed notes", floor: "`git pull` + plain FTS5 update", goal: 1.0)
        // The same pulls against a floor that keeps what a crash would otherwise take: git syncs no
        // work-tree file, Sheaf syncs each it writes before swapping it in (`fts_reference.py
        // update --fsync` syncs each file the pull wrote, one after another, before the update).
        var durable = FloorRow(work: "`sheaf pull` of 100 changed notes", floor: "`git pull` + an fsync of each written file + plain FTS5 update", goal: 1.0)
        for k in 0..<options.runs {
            must("python3", [generator, "--edit", "100", "--seed", String(100 + k), a], in: work)
            must(sheaf, ["sync"], in: a)
            settle(a)
            func gitSample() {
                let before = must("git", ["rev-parse", "HEAD"], in: d).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                let run = must("git", ["pull", "-q", "--no-rebase"], in: d)
                let after = must("git", ["rev-parse", "HEAD"], in: d).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                let update = must("python3", [reference, "update", d, plainDB, before, after, "--fsync"], in: work)
                let json = (try? JSONSerialization.jsonObject(with: Data(update.stdout.utf8))) as? [String: Any]
                let plain = run.seconds + (json?["seconds"] as? Double ?? update.seconds)
                row.floor.append(plain)
                durable.floor.append(plain + (json?["fsync_seconds"] as? Double ?? .nan))
                settle(d)
            }
            if k % 2 == 1 { gitSample() }
            let order = k % 2 == 0 ? Array(binaries.indices) : binaries.indices.reversed()
            for i in order {
                let run = must(binaries[i], ["pull"], in: pullers[i])
                row.add(i, run.seconds, peakKB: run.peakKB)
                settle(pullers[i])
            }
            if k % 2 == 0 { gitSample() }
        }
        durable.sheaf = row.sheaf
        durable.peakKB = row.peakKB
        rows += [row, durable]
    }

    // MARK: Search with an idle watcher in B.
    if wants("watch") {
        log("search with an idle watcher against rg...")
        let watcher = startWatcher(sheaf, vault: b, options: ["--no-sync"])
        var vouched = false
        for _ in 0..<600 where !vouched {
            let check = spawn("/bin/sh", ["-c", "\"$0\" search -v \"$1\" 2>&1 >/dev/null", sheaf, options.word], in: b)
            vouched = check.stdout.contains("the watcher vouches")
            if !vouched { usleep(100_000) }
        }
        if vouched {
            let plainB = work + "/plain-b.sqlite"
            plainIndex(of: b, at: plainB)
            for word in words {
                var row = FloorRow(work: "`sheaf search \(word)`, idle watcher (\(holders(word, b)) notes hold it)", floor: "`rg -l -i \(word)`", goal: 0.15)
                alternate(&row, ["search", word], in: b) { spawn("rg", ["-l", "-i", word], in: b).seconds }
                rows.append(row)
                var indexed = FloorRow(work: "`sheaf search \(word)`, idle watcher", floor: indexedFloorName, goal: 1.0)
                alternate(&indexed, ["search", word], in: b) { indexedFloor(plainB, word, in: b) }
                rows.append(indexed)
            }
        } else {
            log("the watcher never vouched for the index: watcher rows left out")
        }
        kill(watcher, SIGTERM)
        var status: Int32 = 0
        waitpid(watcher, &status, 0)
    }

    // MARK: mv of a note one other note links to: B against `git mv` + `rg -l` in D.
    if wants("mv") {
        log("mv with one linking note against git mv + rg -l...")
        var row = FloorRow(work: "`sheaf mv`, 1 linking note", floor: "`git mv` + `rg -l`", goal: 1.5)
        for k in 0..<options.runs {
            for (i, binary) in binaries.enumerated() {
                let target = "Floors target \(k) \(i)"
                for dir in [b, d] {
                    try? "# \(target)\n\nmoved by the benchmark\n".write(toFile: dir + "/\(target).md", atomically: false, encoding: .utf8)
                    try? "# Link \(k) \(i)\n\nsee [[\(target)]]\n".write(toFile: dir + "/Floors link \(k) \(i).md", atomically: false, encoding: .utf8)
                }
                must(sheaf, ["commit", "-q"], in: b)
                must(sheaf, ["index"], in: b)
                settle(b)
                must("git", ["add", "-A"], in: d)
                must("git", ["commit", "-qm", "mv set-up"], in: d)
                settle(d)
                func gitSample() {
                    let mv = must("git", ["mv", "\(target).md", "\(target) moved.md"], in: d)
                    let rg = spawn("rg", ["-l", "-F", "[[\(target)"], in: d)
                    row.floor.append(mv.seconds + rg.seconds)
                }
                if k % 2 == 1 { gitSample() }
                let run = must(binary, ["mv", "\(target).md", "\(target) moved"], in: b)
                row.add(i, run.seconds, peakKB: run.peakKB)
                settle(b)
                if k % 2 == 0 { gitSample() }
            }
        }
        rows.append(row)
    }

    // MARK: attach of one photo to a note of a 200-note vault (one per binary, each indexed by
    // it) against copying the photo beside the note and `vipsthumbnail` of it. Each sample has a
    // photo of its own (vips' noise, 1600x1200), so no thumbnail is found made already.
    if wants("attach") {
        if spawn("/bin/sh", ["-c", "command -v vips && command -v vipsthumbnail"], in: work).status != 0 {
            log("vips or vipsthumbnail missing (libvips-tools): attach row left out")
        } else {
            log("attach of one photo against cp + vipsthumbnail...")
            let small = options.work + "/v200"
            if !fm.fileExists(atPath: small) {
                must("python3", [generator, "--notes", "200", "--seed", "1", small], in: options.work)
            }
            var vaults: [String] = []
            for (i, binary) in binaries.enumerated() {
                let v = work + "/attach\(i)"
                must("cp", ["-a", small, v], in: work)
                must(binary, ["init"], in: v)
                must(binary, ["index"], in: v)
                vaults.append(v)
            }
            let plain = work + "/attach-plain"
            must("cp", ["-a", small, plain], in: work)
            let note = "Attached photos.md"
            for dir in vaults + [plain] {
                try? "# Attached photos\n\nfor the benchmark\n".write(toFile: dir + "/" + note, atomically: false, encoding: .utf8)
            }
            for v in vaults { must(sheaf, ["index"], in: v) }
            var row = FloorRow(work: "`sheaf attach`, 1 photo (1600x1200 JPEG), 200 notes", floor: "`cp` + `vipsthumbnail --size 256`", goal: 1.5)
            for k in 0..<options.runs {
                func photo(_ name: String) -> String {
                    let path = work + "/\(name).jpg"
                    must("vips", ["gaussnoise", path, "1600", "1200"], in: work)
                    return path
                }
                func plainSample() {
                    let source = photo("plain-\(k)")
                    let copy = must("cp", [source, plain + "/"], in: work)
                    let thumb = must("vipsthumbnail", [source, "--size", "256", "-o", work + "/plain-thumb-\(k).jpg[Q=80,strip]"], in: work)
                    row.floor.append(copy.seconds + thumb.seconds)
                }
                if k % 2 == 1 { plainSample() }
                for (i, binary) in binaries.enumerated() {
                    let source = photo("photo-\(k)-\(i)")
                    let run = must(binary, ["attach", "-q", note, source], in: vaults[i])
                    row.add(i, run.seconds, peakKB: run.peakKB)
                }
                if k % 2 == 0 { plainSample() }
            }
            rows.append(row)
        }
    }

    var loads = [Double](repeating: 0, count: 3)
    _ = getloadavg(&loads, 3)
    let head = spawn("git", ["rev-parse", "--short", "HEAD"], in: URL(fileURLWithPath: sheaf).deletingLastPathComponent().path)
    print("""
        Vault: \(options.notes) notes, \(String(format: "%.1f", Double(notesBytes(pristine)) / 1e6)) MB of notes; \
        \(options.runs) samples per median (\(heavyRuns) for clone, first commit and cold index), Sheaf and the floor alternating; \
        \(ProcessInfo.processInfo.activeProcessorCount) cores; load average at the end: \(String(format: "%.2f %.2f %.2f", loads[0], loads[1], loads[2])); \
        sheaf: \(sheaf)\(head.status == 0 ? " (commit " + head.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + ")" : "")\
        \(options.baseline.map { "; baseline: \($0)" } ?? "").

        | work | Sheaf | floor, same run | ratio | goal |\(options.baseline == nil ? "" : " baseline | baseline ratio |")
        |---|---|---|---|---|\(options.baseline == nil ? "" : "---|---|")
        \(rows.map { $0.line(withBaseline: options.baseline != nil) }.joined(separator: "\n"))
        """)
    if !libgit2Start.load.isEmpty {
        let load = median(libgit2Start.load) * 1000, initialise = median(libgit2Start.initialise) * 1000
        print("""

            libgit2's own start, in any process that uses it (median of \(libgit2Start.load.count)): \
            \(String(format: "%.1f", load + initialise)) ms = loading libgit2.so.1.5 and its libraries \
            \(String(format: "%.1f", load)) ms + `git_libgit2_init` \(String(format: "%.1f", initialise)) ms \
            (Debian's build parses the system's CA certificates there). Every row whose command opens the \
            vault's repository (commit, sync, pull, clone, mv) pays it; `git` itself does not.
            """)
    }
}

/// One row of the table: samples per sheaf binary (0 is --sheaf, 1 the baseline) and the floor's.
struct FloorRow {
    let work: String
    let floorName: String
    /// The goal as a ratio to the floor.
    let goal: Double
    var floor: [Double] = []
    var sheaf: [[Double]] = [[], []]
    var peakKB = 0

    init(work: String, floor: String, goal: Double) {
        self.work = work
        self.floorName = floor
        self.goal = goal
    }

    mutating func add(_ binary: Int, _ seconds: Double, peakKB: Int) {
        sheaf[binary].append(seconds)
        if binary == 0 { self.peakKB = max(self.peakKB, peakKB) }
    }

    func line(withBaseline: Bool) -> String {
        func cell(_ values: [Double]) -> String {
            guard let low = values.min(), let high = values.max() else { return "not run" }
            return values.count == 1 ? format(low) : "\(format(median(values))) (\(format(low))-\(format(high)))"
        }
        let f = median(floor), mine = median(sheaf[0])
        let ratio = f > 0 ? mine / f : .nan
        let verdict = ratio <= goal ? "met" : "**missed**"
        var text = "| \(work) | \(cell(sheaf[0])), \(peakKB / 1024) MB | \(floorName): \(cell(floor)) | \(String(format: "%.2fx", ratio)) | ≤ \(String(format: "%.2g", goal))x: \(verdict) |"
        if withBaseline {
            let old = median(sheaf[1])
            text += sheaf[1].isEmpty ? " - | - |" : " \(cell(sheaf[1])) | \(String(format: "%.2fx", old / f)) |"
        }
        return text
    }
}

/// Waits until no process whose working directory is `folder` (or below it) runs any more: git's
/// detached `gc --auto` and `sheaf housekeep` both start there. At most 20 minutes.
func waitForBackgroundWork(under folder: String) {
    let own = getpid()
    usleep(50_000)  // a detaching child gets the moment it needs to start
    for _ in 0..<12_000 {
        let busy = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).contains { entry in
            guard let pid = Int32(entry), pid != own,
                  let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/cwd") else { return false }
            return cwd == folder || cwd.hasPrefix(folder + "/")
        }
        if !busy { return }
        usleep(100_000)
    }
}
