// Paths from libgit2 are bytes. `String(cString:)` would repair a name that is not UTF-8 into
// U+FFFD, a name no file has (or its twin's), so every path that leaves libgit2 for staging is
// validated here; the ones that fail are reported by a readable name (`caf\xE9.md`).
import Foundation

/// The work tree's changes as staging sees them.
public struct WorkTreeStatus: Sendable, Equatable {
    public var changes: [StagedChange] = []
    /// Paths left out of the changes, with why.
    public var skipped: [SkippedPath] = []
}

/// A path staging left out, named so a person can find it.
public struct SkippedPath: Sendable, Equatable, CustomStringConvertible {
    /// The path, with each byte that is not UTF-8 written as `\xFF`.
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}

/// What `stageAll` did.
public struct StagingReport: Sendable, Equatable {
    /// Whether anything was staged (false: the index file was left alone).
    public var staged: Bool
    /// Paths left out (not UTF-8); the rest of the work tree was staged.
    public var skipped: [SkippedPath]
    /// Whether the status saw HEAD, the index and the work tree alike (nothing staged before,
    /// nothing to stage, nothing left out): there is nothing to commit, with no diff to run.
    public var clean = false
}

enum GitPath {
    static let notUTF8 = "the name is not UTF-8; not committed (rename it to commit it)"

    /// The path as a String when its bytes are UTF-8, else nil.
    static func string(_ raw: UnsafePointer<CChar>) -> String? {
        string(bytes(raw))
    }

    static func string(_ bytes: [UInt8]) -> String? { String(validating: bytes, as: UTF8.self) }

    static func bytes(_ raw: UnsafePointer<CChar>) -> [UInt8] {
        Array(UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw)))
    }

    static func display(_ raw: UnsafePointer<CChar>) -> String { display(bytes(raw)) }

    /// Valid UTF-8 as it is; each other byte as `\xFF`.
    static func display(_ bytes: [UInt8]) -> String {
        var out = ""
        var rest = bytes[...]
        while !rest.isEmpty {
            if let k = (1...min(4, rest.count)).first(where: { String(validating: rest.prefix($0), as: UTF8.self) != nil }) {
                out += String(decoding: rest.prefix(k), as: UTF8.self)
                rest = rest.dropFirst(k)
            } else {
                let hex = String(rest.first!, radix: 16, uppercase: true)
                out += "\\x" + (hex.count == 1 ? "0" + hex : hex)
                rest = rest.dropFirst()
            }
        }
        return out
    }
}
