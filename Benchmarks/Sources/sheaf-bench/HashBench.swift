// `sheaf-bench hash`: Sheaf's SHA-1 (Sources/SheafCore/SHA1.swift, linked here as a symlink, so
// this is the very code the index and the thumbnails use) over a large file, read in 1 MB pieces
// as GitBlobID.ofFile reads it, next to `git hash-object` on the same file in the same run.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The blob id of `path` as GitBlobID.ofFile computes it, and the seconds it took.
func sheafBlobID(_ path: String) -> (String, Double) {
    let start = Date()
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { fail("cannot open \(path)") }
    defer { close(fd) }
    var info = stat()
    fstat(fd, &info)
    var sha = SHA1()
    sha.update(Array("blob \(info.st_size)\0".utf8))
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    while true {
        let n = read(fd, buffer, 1 << 20)
        if n <= 0 { break }
        sha.update(UnsafeRawBufferPointer(start: buffer, count: n))
    }
    return (SHA1.hex(sha.finish()), Date().timeIntervalSince(start))
}

func runHashBenchmark(options: Options) {
    let megabytes = max(1, options.megabytes)
    let path = options.work + "/hash-\(megabytes)MB.bin"
    try? FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
    if fileSize(path) != megabytes << 20 {
        must("sh", ["-c", "head -c \(megabytes)M /dev/urandom > '\(path)'"], in: options.work)
    }
    _ = must("cat", [path], in: options.work)  // warm the page cache
    var ours: [Double] = [], git: [Double] = []
    for _ in 0..<options.runs {
        let (id, seconds) = sheafBlobID(path)
        let reference = must("git", ["hash-object", path], in: options.work)
        guard reference.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == id else {
            fail("blob ids differ: sheaf \(id), git \(reference.stdout)")
        }
        ours.append(seconds)
        git.append(reference.seconds)
    }
    let (a, b) = (median(ours), median(git))
    let mb = Double(megabytes << 20) / 1e6
    print("| work | Sheaf, median | `git hash-object`, same run | ratio |")
    print("|---|---|---|---|")
    print(String(format: "| blob id of a %d MB file | %.2f s (%.0f MB/s) | %.2f s (%.0f MB/s) | %.2fx |",
                 megabytes, a, mb / a, b, mb / b, a / b))
}
