// `sheaf-thumbnailer`: the only executable linked with libvips. `sheaf` runs it when a command
// makes thumbnails (ThumbnailBatch.swift in SheafFiles says how they talk), so no other command
// pays for loading the image library, and untrusted images are decoded in a process of their own.
//
//   sheaf-thumbnailer batch REQUEST.json     one batch; one JSON line per event on stdout
//   sheaf-thumbnailer one SRC OUT EDGE Q     one image under a memory cap (run by `batch` itself)
import CAllocationWatch
import Foundation
import Glibc
import SheafFiles
import SheafMedia
import SheafProcess

/// This executable's own path, for running itself as the memory-capped helper of one image.
func ownPath() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    return n > 0 ? String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("sheaf-thumbnailer: \(message)\n".utf8))
    exit(2)
}

/// Top-level variables are main-actor isolated in Swift 6: the work lives in a function.
func main(_ arguments: [String]) -> Never {
    // Killed with the process that started it (a `sheaf index` killed by `timeout` left its
    // helpers decoding on, reparented to init); when that one is gone already, nothing to do.
    guard ChildProcess.dieWithParent(getppid()) else { exit(2) }
    switch arguments.first {
    case "one" where arguments.count == 5:
        guard let edge = Int(arguments[3]), let quality = Int(arguments[4]) else { fail("bad size or quality") }
        exit(ThumbnailIsolation.runHelper(source: arguments[1], output: arguments[2], longEdge: edge, quality: quality,
                                          allocationFailed: { sheaf_allocation_failed() != 0 }))
    case "batch" where arguments.count == 2:
        signal(SIGPIPE, SIG_IGN)  // a caller that went away makes writes fail, not this process die
        guard let data = FileManager.default.contents(atPath: arguments[1]) else { fail("cannot read \(arguments[1])") }
        let batch: ThumbnailBatch
        do { batch = try JSONDecoder().decode(ThumbnailBatch.self, from: data) } catch { fail("not a thumbnail batch: \(error)") }
        ThumbnailIsolation.enable(command: [ownPath(), "one"])
        let lock = NSLock()
        ThumbnailBatchRunner.run(batch) { line in
            let bytes = line.encoded
            lock.withLock { try? FileHandle.standardOutput.write(contentsOf: bytes) }
        }
        exit(0)
    default:
        fail("usage: sheaf-thumbnailer batch REQUEST.json | one SOURCE OUTPUT LONG-EDGE QUALITY (run by sheaf, not by people)")
    }
}

main(Array(CommandLine.arguments.dropFirst()))
