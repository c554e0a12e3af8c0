// The pipes between Sheaf and a child: made close-on-exec (the child gets its dup2'd copies
// only), then one poll loop writes the child's input and reads its output and errors together,
// so a child that fills one pipe while Sheaf waits on another never stalls.
#if canImport(Glibc)
import Glibc
#endif
import CSpawn

struct Pipes {
    struct Ends {
        var read: Int32 = -1
        var write: Int32 = -1
    }
    var input = Ends(), output = Ends(), errors = Ends()

    mutating func open(_ which: WritableKeyPath<Pipes, Ends>, _ program: String) throws(ChildProcess.StartFailure) {
        var fds: [Int32] = [-1, -1]
        guard sheaf_pipe_closing_on_exec(&fds) == 0 else { throw ChildProcess.StartFailure(program: program, code: errno) }
        self[keyPath: which] = Ends(read: fds[0], write: fds[1])
    }

    /// After the spawn: the ends the child reads and writes are its own now.
    mutating func closeChildEnds() {
        Self.close(&input.read)
        Self.close(&output.write)
        Self.close(&errors.write)
    }

    mutating func closeAll() {
        for which in [\Pipes.input, \.output, \.errors] {
            Self.close(&self[keyPath: which].read)
            Self.close(&self[keyPath: which].write)
        }
    }

    private static func close(_ fd: inout Int32) {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// Writes `input` and reads both outputs until the child has closed them. A child that stops
    /// reading its input ends the writing (EPIPE, with SIGPIPE held back from this thread).
    mutating func exchange(input bytes: [UInt8], output outputGoes: ChildProcess.Output, errors errorsGo: ChildProcess.Output)
        -> (output: [UInt8], errors: [UInt8]) {
        var captured: (output: [UInt8], errors: [UInt8]) = ([], [])
        var written = 0
        if input.write >= 0 {
            _ = fcntl(input.write, F_SETFL, fcntl(input.write, F_GETFL) | O_NONBLOCK)
            if bytes.isEmpty { Self.close(&input.write) }
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while input.write >= 0 || output.read >= 0 || errors.read >= 0 {
            var polled: [pollfd] = []
            if input.write >= 0 { polled.append(pollfd(fd: input.write, events: Int16(POLLOUT), revents: 0)) }
            if output.read >= 0 { polled.append(pollfd(fd: output.read, events: Int16(POLLIN), revents: 0)) }
            if errors.read >= 0 { polled.append(pollfd(fd: errors.read, events: Int16(POLLIN), revents: 0)) }
            guard poll(&polled, nfds_t(polled.count), -1) >= 0 else {
                if errno == EINTR { continue }
                break
            }
            for entry in polled where entry.revents != 0 {
                if entry.fd == input.write {
                    if Self.writeSome(bytes, from: &written, to: entry.fd) == false || written == bytes.count {
                        Self.close(&input.write)
                    }
                    continue
                }
                let n = buffer.withUnsafeMutableBytes { Glibc.read(entry.fd, $0.baseAddress, $0.count) }
                if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                let isOutput = entry.fd == output.read
                if n <= 0 {
                    if isOutput { Self.close(&output.read) } else { Self.close(&errors.read) }
                    continue
                }
                switch isOutput ? outputGoes : errorsGo {
                case .capture:
                    if isOutput { captured.output += buffer[0..<n] } else { captured.errors += buffer[0..<n] }
                case .stream(let take):
                    take(buffer[0..<n])
                case .discard, .inherit, .descriptor:
                    break
                }
            }
        }
        return captured
    }

    /// One non-blocking write of what is left; false once the child can take no more input.
    private static func writeSome(_ bytes: [UInt8], from written: inout Int, to fd: Int32) -> Bool {
        var held = sigset_t(), previous = sigset_t()
        sigemptyset(&held)
        sigaddset(&held, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &held, &previous)
        defer {
            // A SIGPIPE this write raised is taken here, so it never reaches the process.
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 && sigismember(&previous, SIGPIPE) == 0 {
                var none = timespec()
                _ = sigtimedwait(&held, nil, &none)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
        if n >= 0 { written += n; return true }
        return errno == EINTR || errno == EAGAIN
    }
}
