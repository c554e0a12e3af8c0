// A one-line progress bar on stderr, drawn only when stderr is a terminal and -q is off, and only
// for work that lasts: nothing appears before a third of a second, so quick commands stay quiet
// while a read command that rebuilds a missing index shows it is alive.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

final class ProgressBar: @unchecked Sendable {
    private let label: String
    private let lock = NSLock()
    private var lastPercent = -1
    private var drawn = false
    private let start = Date()
    /// Work that ends sooner than this draws nothing.
    static let delay: TimeInterval = 1.0 / 3

    init(_ label: String) { self.label = label }

    static var enabled: Bool { Terminal.stderrIsTTY && !Terminal.quiet }

    /// A callback for long work, nil when no bar should be drawn.
    static func callback(_ label: String) -> (@Sendable (Int, Int) -> Void, ProgressBar)? {
        guard enabled else { return nil }
        let bar = ProgressBar(label)
        return ({ done, total in bar.update(done, total) }, bar)
    }

    func update(_ done: Int, _ total: Int) {
        guard total > 0 else { return }
        let percent = done * 100 / total
        lock.lock(); defer { lock.unlock() }
        if done >= total {
            if drawn { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)); drawn = false }
            return
        }
        guard percent != lastPercent, drawn || Date().timeIntervalSince(start) >= Self.delay else { return }
        lastPercent = percent
        let width = 30
        let filled = width * done / total
        let line = "\r\(label) [" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            + "] \(done)/\(total)"
        FileHandle.standardError.write(Data(line.utf8))
        drawn = true
    }

    /// Clears the bar's line.
    func finish() {
        lock.lock(); defer { lock.unlock() }
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }
}
