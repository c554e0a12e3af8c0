// Blobs in bounded memory. libgit2 reads a blob whole (`git_blob_lookup`), and a pack compresses
// a gigabyte of zeros to a megabyte, so a remote can make any whole read cost gigabytes cheaply.
// Here a blob's size is read from its object header alone, and a large blob is streamed to a
// file: from a loose object through libgit2's read stream; from a pack (where libgit2 1.5.1 has
// no read stream) through `git cat-file blob`, which streams a blob stored whole (not as a delta)
// in a pack when it is over core.bigFileThreshold (set here to `streamingThreshold`); git stores
// every file over its default threshold (512 MB) whole. A work-tree file's blob id is hashed from
// the file in chunks.
import CGit2
import Foundation
import SheafProcess

extension Repository {
    /// Blobs up to this size are copied through memory; larger ones are streamed.
    public static let streamingThreshold = 4 << 20

    /// A blob's size in bytes, read from its object header: its bytes are not loaded.
    public func blobSize(_ id: String) throws(GitError) -> Int {
        var oid = try Self.oid(id)
        let odb = try objectDatabase()
        defer { git_odb_free(odb) }
        var size = 0
        var type = GIT_OBJECT_INVALID
        try check(git_odb_read_header(&size, &type, odb, &oid), "git_odb_read_header")
        guard type == GIT_OBJECT_BLOB else {
            throw GitError(function: "git_odb_read_header", code: .other(-1), message: "\(id) is not a blob")
        }
        return size
    }

    /// Writes a blob's bytes to `fd` (an open, writable descriptor, at its current offset) in
    /// bounded memory, whatever the blob's size. The descriptor stays open.
    public func writeBlob(_ id: String, toFileDescriptor fd: Int32) throws(GitError) {
        let size = try blobSize(id)
        if size <= Self.streamingThreshold {
            let bytes = try blobBytes(id)
            try Self.writeAll(fd, bytes[...])
            return
        }
        if try streamLooseObject(id, size: size, to: fd) { return }
        try catFile(id, size: size, to: fd)
    }

    /// Writes a blob's bytes to a new file at `path` (replaced if it exists, mode 0644), in
    /// bounded memory. Not atomic: write to a temporary path and rename for that.
    public func writeBlob(_ id: String, toFile path: String) throws(GitError) {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Self.systemError("open", path) }
        var closed = false
        defer { if !closed { close(fd) } }
        try writeBlob(id, toFileDescriptor: fd)
        closed = true
        guard close(fd) == 0 else { throw Self.systemError("close", path) }
    }

    /// The blob id git would give the file's bytes (not following a symlink's target: a symlink
    /// is hashed as the bytes of its target path, as git stores it), read in chunks.
    public static func blobID(ofFile path: String) throws(GitError) -> String {
        Library.ensure()
        var info = stat()
        guard lstat(path, &info) == 0 else { throw systemError("lstat", path) }
        if (info.st_mode & S_IFMT) == S_IFLNK {
            var target = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(path, &target, target.count)
            guard n >= 0 else { throw systemError("readlink", path) }
            return try blobID(of: Array(target[..<n]))
        }
        // libgit2 opens the path as it is: a FIFO would block until someone writes to it.
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw GitError(function: "blobID(ofFile:)", code: .other(-1), message: "\(path): not a regular file") }
        var oid = git_oid()
        try check(git_odb_hashfile(&oid, path, GIT_OBJECT_BLOB), "git_odb_hashfile")
        return hex(&oid)
    }

    private func objectDatabase() throws(GitError) -> OpaquePointer? {
        var odb: OpaquePointer?
        try check(git_repository_odb(&odb, handle), "git_repository_odb")
        return odb
    }

    /// Streams a loose object through libgit2; false when the blob is not loose (packed).
    private func streamLooseObject(_ id: String, size: Int, to fd: Int32) throws(GitError) -> Bool {
        var oid = try Self.oid(id)
        let odb = try objectDatabase()
        defer { git_odb_free(odb) }
        var stream: UnsafeMutablePointer<git_odb_stream>?
        var length = 0
        var type = GIT_OBJECT_INVALID
        guard git_odb_open_rstream(&stream, &length, &type, odb, &oid) == 0, let stream else {
            git_error_clear()
            return false
        }
        defer { git_odb_stream_free(stream) }
        guard type == GIT_OBJECT_BLOB, length == size else {
            throw GitError(function: "git_odb_open_rstream", code: .other(-1), message: "\(id) is not a blob of \(size) bytes")
        }
        var buffer = [CChar](repeating: 0, count: 1 << 16)
        var written = 0
        while written < size {
            let n = buffer.withUnsafeMutableBufferPointer { git_odb_stream_read(stream, $0.baseAddress, $0.count) }
            try check(min(n, 0), "git_odb_stream_read")
            if n == 0 { break }
            try buffer.withUnsafeBytes { raw in Self.writeAll(fd, UnsafeRawBufferPointer(rebasing: raw[..<Int(n)])) }.get()
            written += Int(n)
        }
        guard written == size else {
            throw GitError(function: "git_odb_stream_read", code: .other(-1), message: "\(id): read \(written) of \(size) bytes")
        }
        return true
    }

    /// `git cat-file blob ID` with its output on `fd`. Without git installed, the blob is read
    /// whole through libgit2 (the one case left unbounded).
    private func catFile(_ id: String, size: Int, to fd: Int32) throws(GitError) {
        let start = lseek(fd, 0, SEEK_CUR)
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GIT_") }
        environment["GIT_DIR"] = gitDirectory
        // git streams a packed blob stored whole only when it is over core.bigFileThreshold.
        let argv = ["/usr/bin/env", "git", "-c", "core.bigFileThreshold=\(Self.streamingThreshold)", "cat-file", "blob", id]
        guard let outcome = try? ChildProcess.run(argv, environment: environment, output: .descriptor(fd)) else {
            let bytes = try blobBytes(id)
            try Self.writeAll(fd, bytes[...])
            return
        }
        if outcome.exitStatus == 127 && start >= 0 {
            // env found no git: fall back to libgit2.
            guard lseek(fd, start, SEEK_SET) == start, ftruncate(fd, start) == 0 else { throw Self.systemError("ftruncate", "blob \(id)") }
            let bytes = try blobBytes(id)
            try Self.writeAll(fd, bytes[...])
            return
        }
        guard outcome.succeeded else {
            throw GitError(function: "git cat-file", code: .other(-1),
                           message: "git cat-file blob \(id) exited with status \(outcome.status)")
        }
        let end = lseek(fd, 0, SEEK_CUR)
        if start >= 0 && end >= 0 && Int(end - start) != size {
            throw GitError(function: "git cat-file", code: .other(-1), message: "\(id): wrote \(end - start) of \(size) bytes")
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) throws(GitError) {
        try bytes.withUnsafeBytes { writeAll(fd, $0) }.get()
    }

    private static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Result<Void, GitError> {
        var offset = 0
        while offset < buffer.count {
            let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(systemError("write", "a blob's bytes"))
            }
            offset += n
        }
        return .success(())
    }

    private static func systemError(_ function: String, _ what: String) -> GitError {
        GitError(function: function, code: .other(-1), message: "\(what): \(String(cString: strerror(errno)))")
    }
}
