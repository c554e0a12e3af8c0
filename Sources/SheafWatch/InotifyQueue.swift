// The kernel's side of the watcher: one inotify instance, its watches, and its events read back
// as plain values. One instance for everything (the vault's folders and the cookie folder) is what
// makes the cookie protocol sound: the kernel keeps one queue per instance, in order, so an event
// read after a cookie's was queued after it.
#if canImport(Glibc)
import Glibc
#endif
import SheafCore

/// One inotify event as read from the kernel.
struct InotifyEvent {
    let wd: Int32
    let mask: UInt32
    let cookie: UInt32
    /// The name in the watched folder (empty for events about the folder itself), as bytes.
    let name: [UInt8]

    func has(_ flag: Int32) -> Bool { mask & UInt32(bitPattern: flag) != 0 }
    var isFolder: Bool { has(IN_ISDIR) }
}

/// What adding a watch gave.
enum WatchOutcome: Equatable {
    case watching(Int32)
    /// The folder is gone or is no folder (any more): nothing to watch.
    case gone
    /// A limit was reached or the folder cannot be read: changes in it would be missed.
    case failed(String)
}

final class InotifyQueue {
    let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 256 * 1024)

    /// Events asked for on every vault folder.
    static let folderMask: UInt32 = [IN_CLOSE_WRITE, IN_MODIFY, IN_ATTRIB, IN_CREATE, IN_DELETE,
                                     IN_MOVED_FROM, IN_MOVED_TO, IN_DELETE_SELF, IN_MOVE_SELF,
                                     IN_ONLYDIR, IN_DONT_FOLLOW, IN_EXCL_UNLINK]
        .reduce(0) { $0 | UInt32(bitPattern: $1) }

    init() throws(SheafError) {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else {
            let why = errno == EMFILE
                ? "the inotify instance limit (/proc/sys/fs/inotify/max_user_instances = \(Self.limit("max_user_instances"))) is reached"
                : String(cString: strerror(errno))
            throw SheafError("cannot watch the vault", cause: why,
                             hint: errno == EMFILE ? "raise fs.inotify.max_user_instances (sysctl) or stop other watchers" : nil)
        }
    }

    deinit { close(fd) }

    /// Watches `absolutePath` (a folder, never followed through a symlink).
    func addWatch(_ absolutePath: String, mask: UInt32 = InotifyQueue.folderMask) -> WatchOutcome {
        let wd = inotify_add_watch(fd, absolutePath, mask)
        if wd >= 0 { return .watching(wd) }
        switch errno {
        case ENOENT, ENOTDIR: return .gone
        case ENOSPC:
            return .failed("the inotify watch limit (/proc/sys/fs/inotify/max_user_watches = \(Self.limit("max_user_watches"))) is reached")
        case let code: return .failed(String(cString: strerror(code)))
        }
    }

    func removeWatch(_ wd: Int32) { _ = inotify_rm_watch(fd, wd) }

    /// Reads what the kernel has queued, without waiting. `nil` when the read failed or an event
    /// could not be taken apart (the caller must then rescan).
    func readAvailable() -> [InotifyEvent]? {
        var events: [InotifyEvent] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { return events }
                return nil
            }
            if count == 0 { return events }
            guard parse(count, into: &events) else { return nil }
        }
    }

    private func parse(_ count: Int, into events: inout [InotifyEvent]) -> Bool {
        let header = 16  // wd, mask, cookie, len: four 32-bit fields
        var offset = 0
        return buffer.withUnsafeBytes { raw -> Bool in
            while offset < count {
                guard count - offset >= header else { return false }
                let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let cookie = raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
                let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                guard length <= count - offset - header else { return false }
                var name = Array(raw[(offset + header)..<(offset + header + length)])
                if let end = name.firstIndex(of: 0) { name.removeSubrange(end...) }  // NUL padding
                events.append(InotifyEvent(wd: wd, mask: mask, cookie: cookie, name: name))
                offset += header + length
            }
            return true
        }
    }

    /// The value of `/proc/sys/fs/inotify/<name>`, for messages.
    static func limit(_ name: String) -> String {
        guard let file = fopen("/proc/sys/fs/inotify/" + name, "r") else { return "unknown" }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 64)
        guard fgets(&line, 64, file) != nil else { return "unknown" }
        return String(decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
