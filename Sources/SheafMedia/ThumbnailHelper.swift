// Thumbnails whose decoding cost the header does not bound are made in a child process with a
// memory limit. An interlaced PNG is decoded whole (a 10000 x 10000 16-bit one: 600 MB), a HEIF
// image too, and poppler draws a PDF page's images at their own size (a 20000 x 20000 image on
// an A4 page: 1.6 GB), whatever the thumbnail's size. So an image over `largeImagePixels`, and
// every PDF and SVG (a small page can hold any image) and HEIF image (decoded whole: 150 MB for
// 12 megapixels, two at once would pass the budget), goes to a helper: `sheaf-thumbnailer one`,
// a child of the batch helper (ThumbnailBatchRunner), which caps its own data segment
// (RLIMIT_DATA, which counts malloc'd and mmap'd memory) before it starts libvips. A helper that
// passes the cap fails or is killed, and the image is refused with a message, never the command.
import CVips
import Foundation
import SheafProcess
import Glibc
import SheafCore

public enum ThumbnailIsolation {
    /// What a helper may allocate. With the helper's code and libraries (about 45 MB resident)
    /// it stays under the 300 MB budget of any command, and it still decodes a 30-megapixel
    /// progressive JPEG (its coefficients take 6 bytes a pixel: 232 MB peak RSS).
    public static let dataLimit = 240 << 20

    private final class State: @unchecked Sendable {
        let lock = NSLock()
        var command: [String]?
    }
    private static let state = State()

    /// Makes every isolated thumbnail with `command` + [source, output, long edge, quality]: the
    /// executable and its subcommand, which calls `runHelper` (`sheaf-thumbnailer one`). Until
    /// this is called (in tests of the library), thumbnails are made in the calling process.
    public static func enable(command: [String]) {
        state.lock.withLock { state.command = command }
    }

    static var command: [String]? { state.lock.withLock { state.command } }

    /// Whether an image is decoded in a helper process (when isolation is enabled).
    static func isIsolated(_ info: ImageInfo) -> Bool {
        [.pdf, .svg, .heif].contains(info.format) || info.width * info.height > Thumbnailer.largeImagePixels
    }

    /// The helper's exit status when an allocation failed under its cap: the image needs more
    /// memory than a thumbnail may use. Decided by the allocator (`allocationFailed`), never by
    /// the wording of a library's message, which may name the file (`memory-notes.pdf`).
    public static let outOfMemoryStatus: Int32 = 3

    /// The CPU one image may take to decode and shrink.
    public static let cpuLimitSeconds = 20

    /// The helper's work, in the helper process: caps its memory, makes one thumbnail, and returns
    /// the exit status: 0; or, with the error's `what` and `cause` on two lines of stderr,
    /// `outOfMemoryStatus` when `allocationFailed()` says an allocation failed, else 2.
    public static func runHelper(source: String, output: String, longEdge: Int, quality: Int,
                                 allocationFailed: () -> Bool) -> Int32 {
        var limit = rlimit(rlim_cur: rlim_t(dataLimit), rlim_max: rlim_t(dataLimit))
        // CPU too (regression: a 3.5 KB PDF of nested forms drew 10^7 shapes, minutes of CPU under
        // the memory cap, and every index, pull and watcher batch ran it again): SIGXCPU ends it.
        var cpu = rlimit(rlim_cur: rlim_t(cpuLimitSeconds), rlim_max: rlim_t(cpuLimitSeconds + 5))
        guard setrlimit(Int32(RLIMIT_DATA.rawValue), &limit) == 0, setrlimit(Int32(RLIMIT_CPU.rawValue), &cpu) == 0 else {
            FileHandle.standardError.write(Data("cannot limit the memory or time of the thumbnail helper\n\(String(cString: strerror(errno)))\n".utf8))
            return 2
        }
        do {
            try Vips.start()
            vips_concurrency_set(Int32(sysconf(Int32(_SC_NPROCESSORS_ONLN))))  // the helper runs alone
            try Thumbnailer(longEdge: longEdge, quality: quality).thumbnailHere(of: source, to: output)
            return 0
        } catch {
            let text = error.what + "\n" + (error.cause ?? "") + "\n"
            FileHandle.standardError.write(Data(text.utf8))
            return allocationFailed() ? outOfMemoryStatus : 2
        }
    }

    /// Runs the helper for one image and waits for it.
    static func run(_ command: [String], source: String, output: String, longEdge: Int, quality: Int) throws(SheafError) {
        let argv = command + [source, output, String(longEdge), String(quality)]
        let outcome: ChildProcess.Outcome
        do { outcome = try ChildProcess.run(argv, errors: .capture) } catch {
            throw SheafError("cannot start the thumbnail helper", path: command[0], cause: "\(error)")
        }
        if outcome.succeeded { return }
        let text = String(decoding: outcome.errors, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var memory = "decoding it needs more than the \(dataLimit >> 20) MB a thumbnail may use"
        let cause = lines.count >= 2 && !lines[1].isEmpty ? lines[1] : nil
        if let status = outcome.exitStatus {
            if status == 2 && lines.count >= 2 && !lines[0].isEmpty {
                throw SheafError(lines[0], path: source, cause: cause)
            }
            if status == outOfMemoryStatus, let cause { memory += " (\(cause))" }
        }
        if outcome.signal == SIGXCPU || outcome.signal == SIGKILL && outcome.exitStatus == nil && lines.allSatisfy(\.isEmpty) {
            throw SheafError("refused an image too costly to decode", path: source,
                             cause: "it took more than the \(cpuLimitSeconds) s of CPU a thumbnail may use")
        }
        // An allocation failed under the cap, the helper was killed (poppler aborts when an
        // allocation fails), or it failed some other way.
        throw SheafError("refused an image too large to decode", path: source, cause: memory)
    }
}
