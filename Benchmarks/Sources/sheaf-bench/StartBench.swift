// `sheaf-bench start`: what a process costs before it does any work, each figure next to a
// reference measured in the same run, samples alternating between the two:
//   - `sheaf --version` (process start alone) next to `git --version`;
//   - `sheaf search WORD` on a small vault (default 200 notes, indexed first) next to `rg -l -i WORD`;
//   - `sheaf merge-file BASE OURS THEIRS -o OUT` on a small note (non-overlapping edits) next to
//     `git merge-file -p OURS BASE THEIRS`, which git runs for every conflicted file it merges;
//   - the same merge by `sheaf-merge-file` (beside sheaf), the executable git's merge driver runs;
// then the shared libraries each sheaf command maps (LD_DEBUG=files names every object the
// dynamic loader maps, dlopen included), and those of `sheaf-thumbnailer` for comparison.
// Wall time is what a person waits for; CPU time (user + system, from wait4) moves less with the
// load of a shared machine. Both are medians.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

func runStartBenchmark(options: Options, sheaf: String, generator: String) {
    let fm = FileManager.default
    func log(_ text: String) { FileHandle.standardError.write(Data("\(text)\n".utf8)) }
    let notes = options.notesGiven ? options.notes : 200
    let runs = options.runsGiven ? options.runs : 31
    let work = options.work + "/start"
    try? fm.createDirectory(atPath: work, withIntermediateDirectories: true)
    let pristine = work + "/v\(notes)"
    if !fm.fileExists(atPath: pristine) {
        log("generating \(notes) notes in \(pristine)...")
        must("python3", [generator, "--notes", String(notes), "--seed", "1", pristine], in: work)
    }
    let vault = work + "/vault\(notes)"
    try? fm.removeItem(atPath: vault)
    must("cp", ["-a", pristine, vault], in: work)
    must(sheaf, ["init"], in: vault)
    must(sheaf, ["index"], in: vault)

    // A small note and two non-overlapping edits of it.
    var lines = ["---", "title: Weekly review", "tags: [work, review]", "---", "# Weekly review", ""]
    for i in 1...30 { lines.append("Line \(i) of the note, with a few words about running and syncing.") }
    let base = lines.joined(separator: "\n") + "\n"
    var ours = lines, theirs = lines
    ours[8] = "Line 3 changed here."
    theirs[30] = "Line 25 changed there."
    let (basePath, oursPath, theirsPath, outPath) = (work + "/base.md", work + "/ours.md", work + "/theirs.md", work + "/merged.md")
    try? base.write(toFile: basePath, atomically: true, encoding: .utf8)
    try? (ours.joined(separator: "\n") + "\n").write(toFile: oursPath, atomically: true, encoding: .utf8)
    try? (theirs.joined(separator: "\n") + "\n").write(toFile: theirsPath, atomically: true, encoding: .utf8)

    struct Pair {
        let name: String, reference: String, budget: String
        let sheaf: [String], other: [String], otherExecutable: String
        let ratioBudget: Double?, absoluteBudgetMS: Double?
        var executable: String? = nil
    }
    let driver = (sheaf as NSString).deletingLastPathComponent + "/sheaf-merge-file"
    let pairs = [
        Pair(name: "`sheaf --version` (process start)", reference: "`git --version`", budget: "≤ 10 ms",
             sheaf: ["--version"], other: ["--version"], otherExecutable: "git", ratioBudget: nil, absoluteBudgetMS: 10),
        Pair(name: "`sheaf search \(options.word)`, \(notes) notes", reference: "`rg -l -i \(options.word)`", budget: "≤ 35 ms",
             sheaf: ["search", options.word], other: ["-l", "-i", options.word, "."], otherExecutable: "rg",
             ratioBudget: nil, absoluteBudgetMS: 35),
        Pair(name: "`sheaf merge-file` (small note)", reference: "`git merge-file -p`", budget: "≤ 3x git",
             sheaf: ["merge-file", basePath, oursPath, theirsPath, "-o", outPath],
             other: ["merge-file", "-p", oursPath, basePath, theirsPath], otherExecutable: "git",
             ratioBudget: 3, absoluteBudgetMS: nil),
    ] + (fm.isExecutableFile(atPath: driver) ? [
        Pair(name: "`sheaf-merge-file` (git's merge driver, small note)", reference: "`git merge-file -p`",
             budget: "≤ 3x git", sheaf: [basePath, oursPath, theirsPath, "-o", outPath],
             other: ["merge-file", "-p", oursPath, basePath, theirsPath], otherExecutable: "git",
             ratioBudget: 3, absoluteBudgetMS: nil, executable: driver),
    ] : [])
    // Warm the page cache and check every command works.
    for p in pairs {
        must(p.executable ?? sheaf, p.sheaf, in: vault)
        let other = spawn(p.otherExecutable, p.other, in: vault)
        guard other.status == 0 else { fail("\(p.otherExecutable) \(p.other.joined(separator: " ")) exited \(other.status)") }
    }

    print("### Process start, \(runs) samples each (median; sheaf and the reference alternate)\n")
    print("| command | wall | CPU | reference | wall | CPU | wall ratio | CPU ratio | budget |")
    print("|---|---|---|---|---|---|---|---|---|")
    func ms(_ s: Double) -> String { String(format: "%.1f ms", s * 1000) }
    for p in pairs {
        var sheafRuns: [Run] = [], otherRuns: [Run] = []
        for k in 0..<runs {
            let first = k % 2 == 0
            if first { sheafRuns.append(spawn(p.executable ?? sheaf, p.sheaf, in: vault)) }
            otherRuns.append(spawn(p.otherExecutable, p.other, in: vault))
            if !first { sheafRuns.append(spawn(p.executable ?? sheaf, p.sheaf, in: vault)) }
        }
        let (sw, sc) = (median(sheafRuns.map(\.seconds)), median(sheafRuns.map(\.cpuSeconds)))
        let (ow, oc) = (median(otherRuns.map(\.seconds)), median(otherRuns.map(\.cpuSeconds)))
        let ratio = sw / ow, cpuRatio = oc > 0 ? sc / oc : .infinity
        var met = "—"
        if let limit = p.ratioBudget { met = ratio <= limit ? "met" : "missed" }
        if let limit = p.absoluteBudgetMS { met = sw * 1000 <= limit ? "met" : "missed" }
        print("| \(p.name) | \(ms(sw)) | \(ms(sc)) | \(p.reference) | \(ms(ow)) | \(ms(oc)) | "
              + String(format: "%.1fx | %.1fx", ratio, cpuRatio) + " | \(p.budget): \(met) |")
    }

    // The shared objects each command maps, from the dynamic loader's own log.
    print("\n### Shared libraries mapped\n")
    print("| command | libraries | libvips | largest (file size) |")
    print("|---|---|---|---|")
    let helper = (sheaf as NSString).deletingLastPathComponent + "/sheaf-thumbnailer"
    var listings: [(String, String, [String])] = [
        ("sheaf --version", sheaf, ["--version"]),
        ("sheaf search", sheaf, ["search", options.word]),
        ("sheaf merge-file", sheaf, ["merge-file", basePath, oursPath, theirsPath, "-o", outPath]),
    ]
    if fm.isExecutableFile(atPath: driver) {
        listings.append(("sheaf-merge-file", driver, [basePath, oursPath, theirsPath, "-o", outPath]))
    }
    if fm.isExecutableFile(atPath: helper) { listings.append(("sheaf-thumbnailer (usage)", helper, [])) }
    var lastList: [String] = []
    for (name, executable, arguments) in listings {
        let libraries = mappedLibraries(executable, arguments, in: vault)
        let sized = libraries.map { ($0, fileSize($0)) }.sorted { $0.1 > $1.1 }
        let largest = sized.prefix(3).map { "\(($0.0 as NSString).lastPathComponent) \($0.1 / 1_000_000) MB" }.joined(separator: ", ")
        let vips = libraries.contains { $0.contains("libvips") } ? "yes" : "no"
        print("| `\(name)` | \(libraries.count) | \(vips) | \(largest) |")
        if name == "sheaf search" { lastList = libraries }
    }
    print("\n`sheaf search` maps: " + lastList.map { ($0 as NSString).lastPathComponent }.sorted().joined(separator: " "))
}

/// Every shared object the dynamic loader mapped for one run (LD_DEBUG=libs,files to a file):
/// each "generating link map" follows the "trying file=PATH" that found the object.
func mappedLibraries(_ executable: String, _ arguments: [String], in directory: String) -> [String] {
    let prefix = NSTemporaryDirectory() + "sheaf-bench-ld-\(getpid())"
    setenv("LD_DEBUG", "libs,files", 1)
    setenv("LD_DEBUG_OUTPUT", prefix, 1)
    _ = spawn(executable, arguments, in: directory)
    unsetenv("LD_DEBUG")
    unsetenv("LD_DEBUG_OUTPUT")
    var libraries: [String] = []
    let folder = (prefix as NSString).deletingLastPathComponent, stem = (prefix as NSString).lastPathComponent
    for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(stem + ".") {
        let text = (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? ""
        unlink(folder + "/" + name)
        var tried: String?
        for line in text.split(separator: "\n") {
            if let r = line.range(of: "trying file=") {
                tried = String(line[r.upperBound...])
            } else if let r = line.range(of: "file="), line.hasSuffix("generating link map") {
                libraries.append(tried ?? String(line[r.upperBound...].prefix { $0 != " " }))
                tried = nil
            }
        }
    }
    return libraries
}
