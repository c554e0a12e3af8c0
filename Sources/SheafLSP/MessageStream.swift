// JSON-RPC messages over a pair of file descriptors, framed as the Language Server Protocol
// frames them: `Content-Length: N` headers, a blank line, then N bytes of JSON. Reading is
// bounded: a header block or a body over the limits is skipped, never held whole.
#if canImport(Glibc)
import Glibc
#endif
import Foundation

final class MessageStream: @unchecked Sendable {
    /// The largest message read (an editor sends a whole note per change; notes stop at 10 MB).
    static let bodyLimit = 64 << 20
    static let headerLimit = 8 << 10
    private let input: Int32
    private let output: Int32
    private let writeLock = NSLock()
    private var buffer: [UInt8] = []
    private var start = 0

    init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    /// What one read gave: a message's body, a frame the server could not read, or the end.
    enum Frame {
        case message(Data)
        case unreadable(String)
        case end
    }

    /// The next message's body.
    func next() -> Frame {
        var length: Int?
        // Headers, line by line, up to a blank line.
        var headerBytes = 0
        while true {
            guard let line = readLine() else { return .end }
            headerBytes += line.count + 2
            if headerBytes > Self.headerLimit { return skipToEnd("the headers are too long") }
            if line.isEmpty {
                if length != nil { break }
                continue  // blank lines between messages
            }
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else { continue }
            let name = text[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            if name == "content-length" {
                length = Int(text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                if length == nil { return .unreadable("Content-Length is not a number") }
            }
        }
        guard let length, length >= 0 else { return .unreadable("no Content-Length") }
        if length > Self.bodyLimit {
            guard discard(length) else { return .end }
            return .unreadable("a message of \(length) bytes is over the limit of \(Self.bodyLimit)")
        }
        guard let body = read(length) else { return .end }
        return .message(Data(body))
    }

    /// Sends one message.
    func send(_ object: [String: Any]) {
        let body = JSONText.encode(object)
        var frame = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
        frame.append(contentsOf: body)
        writeLock.lock()
        defer { writeLock.unlock() }
        var offset = 0
        while offset < frame.count {
            let n = frame[offset...].withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }

    private func skipToEnd(_ why: String) -> Frame {
        // Headers without an end in sight: drop what is buffered and start over at the next read.
        buffer = []
        start = 0
        return .unreadable(why)
    }

    private func fill() -> Bool {
        if start > 0 && start == buffer.count { buffer = []; start = 0 }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            if start > 0 { buffer.removeFirst(start); start = 0 }
            buffer.append(contentsOf: chunk[0..<n])
            return true
        }
    }

    /// A header line without its CRLF (or LF), nil at the end of input.
    private func readLine() -> [UInt8]? {
        var searched = start
        while true {
            if let newline = buffer[searched...].firstIndex(of: 0x0A) {
                var line = Array(buffer[start..<newline])
                if line.last == 0x0D { line.removeLast() }
                start = newline + 1
                return line
            }
            searched = buffer.count
            if buffer.count - start > Self.headerLimit { return Array(buffer[start...].prefix(Self.headerLimit + 1)) }
            let offset = buffer.count - start
            guard fill() else { return nil }
            searched = start + offset
        }
    }

    private func read(_ count: Int) -> [UInt8]? {
        while buffer.count - start < count { guard fill() else { return nil } }
        let body = Array(buffer[start..<(start + count)])
        start += count
        return body
    }

    private func discard(_ count: Int) -> Bool {
        var left = count
        while left > 0 {
            if buffer.count - start == 0 { guard fill() else { return false } }
            let take = min(left, buffer.count - start)
            start += take
            left -= take
        }
        return true
    }
}
