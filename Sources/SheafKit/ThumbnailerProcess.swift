// Thumbnails are made by another executable, `sheaf-thumbnailer`, the only one linked with
// libvips: a command that makes none never loads the image library, and untrusted images are
// decoded outside this process. One helper runs per batch of images (not one per image); it is
// found as every sibling executable is (SiblingExecutable: beside `sheaf`, else on PATH). A
// missing helper is an error the caller reports as skipped thumbnails.
// A helper that dies (a decoder's crash) costs only the images it was decoding: they are refused,
// and a new helper takes the rest.
import Foundation
import SheafProcess
import SheafCore
#if canImport(Glibc)
import Glibc
import SheafFiles
#endif

enum ThumbnailerProcess {
    /// The helper's executable: beside this process's executable, else the first on PATH.
    static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws(SheafError) -> String {
        let name = ThumbnailBatch.helperName
        if let found = SiblingExecutable.locate(name, environment: environment) { return found }
        throw SheafError("cannot find the thumbnail helper `\(name)`", path: SiblingExecutable.ownFolder(),
                         cause: "it is neither beside `sheaf` nor on PATH, so no thumbnail was made",
                         hint: "install both executables (scripts/install); the attachments get their thumbnails on the next `sheaf index`")
    }

    /// Runs `batch` through the helper at `executable`; returns one result per file, in order.
    /// `progress` gets (made so far, thumbnails to make).
    static func run(_ batch: ThumbnailBatch, executable: String,
                    progress: (@Sendable (Int, Int) -> Void)?) throws(SheafError) -> [ThumbnailResult] {
        var results = [ThumbnailResult?](repeating: nil, count: batch.files.count)
        var remaining = Array(batch.files.indices)
        var made = 0, work = 0
        while !remaining.isEmpty {
            var part = batch
            part.files = remaining.map { batch.files[$0] }
            var inFlight = Set<Int>()
            let exit = try runOnce(part, executable: executable) { line in
                if let i = line.begin, remaining.indices.contains(i) { inFlight.insert(i) }
                if let i = line.end { inFlight.remove(i) }
                if let n = line.work { work += n }
                if var result = line.result, remaining.indices.contains(result.index) {
                    result.index = remaining[result.index]
                    results[result.index] = result
                    if result.made { made += 1; progress?(made, work) }
                }
            }
            // The images the helper was decoding when it stopped are refused; the others go again.
            if let crash = exit {
                for i in inFlight where results[remaining[i]] == nil {
                    results[remaining[i]] = ThumbnailResult(index: remaining[i], error: "refused an image that stopped the thumbnail helper: \(crash)")
                }
                if inFlight.isEmpty {  // it failed before any image: nothing would be different next time
                    for i in remaining.indices where results[remaining[i]] == nil {
                        results[remaining[i]] = ThumbnailResult(index: remaining[i], error: "the thumbnail helper failed: \(crash)")
                    }
                }
            } else {
                for i in remaining.indices where results[remaining[i]] == nil {
                    results[remaining[i]] = ThumbnailResult(index: remaining[i], error: "the thumbnail helper gave no answer for it")
                }
            }
            remaining = remaining.filter { results[$0] == nil }
        }
        return results.map { $0! }
    }

    /// One helper process on `batch`; `line` is called for each line it prints. Returns nil when it
    /// exited normally, else how it stopped (with the end of what it wrote on stderr).
    private static func runOnce(_ batch: ThumbnailBatch, executable: String,
                                line: (ThumbnailBatchLine) -> Void) throws(SheafError) -> String? {
        let request = NSTemporaryDirectory() + "/sheaf-thumbnails-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json"
        // Read once by the helper and deleted after it: never synced (a crash has no use for it).
        do { try AtomicFile.write(Array(try JSONEncoder().encode(batch)), to: request, durable: false) }
        catch { throw SheafError("cannot write the thumbnail request", path: request, cause: "\(error)") }
        defer { unlink(request) }
        // One poll loop reads both streams (ChildProcess), so a helper writing much on stderr
        // never blocks; each line of stdout is handed on as it comes.
        let decoder = JSONDecoder()
        var pending: [UInt8] = []
        let outcome: ChildProcess.Outcome
        do {
            outcome = try withoutActuallyEscaping(line) { line throws(ChildProcess.StartFailure) in
                try ChildProcess.run([executable, "batch", request], output: .stream { chunk in
                    pending += chunk
                    while let newline = pending.firstIndex(of: 0x0a) {
                        if let decoded = try? decoder.decode(ThumbnailBatchLine.self, from: Data(pending[..<newline])) { line(decoded) }
                        pending.removeSubrange(...newline)
                    }
                }, errors: .capture)
            }
        } catch {
            throw SheafError("cannot start the thumbnail helper", path: executable, cause: "\(error)")
        }
        if outcome.succeeded { return nil }
        let said = String(decoding: outcome.errors, as: UTF8.self)
            .split(separator: "\n").last.map { " (\($0))" } ?? ""
        if let signal = outcome.signal {
            return "killed by signal \(signal)" + said
        }
        return "exit status \(outcome.status)" + said
    }
}
