// Every libgit2 call that can fail goes through `check`, which turns its return code into a
// thrown `GitError` naming the C function, with libgit2's own message read on the same thread.
import CGit2
import Foundation

/// A failed libgit2 call: which function, its return code and libgit2's message.
public struct GitError: Error, CustomStringConvertible, Sendable {
    /// The libgit2 error codes callers act upon.
    public enum Code: Sendable, Equatable {
        case notFound, exists, ambiguous, nonFastForward, auth, certificate, conflict, locked
        case user, other(Int32)

        init(_ raw: Int32) {
            switch raw {
            case GIT_ENOTFOUND.rawValue: self = .notFound
            case GIT_EEXISTS.rawValue: self = .exists
            case GIT_EAMBIGUOUS.rawValue: self = .ambiguous
            case GIT_ENONFASTFORWARD.rawValue: self = .nonFastForward
            case GIT_EAUTH.rawValue: self = .auth
            case GIT_ECERTIFICATE.rawValue: self = .certificate
            case GIT_ECONFLICT.rawValue, GIT_EMERGECONFLICT.rawValue: self = .conflict
            case GIT_ELOCKED.rawValue: self = .locked
            case GIT_EUSER.rawValue: self = .user
            default: self = .other(raw)
            }
        }
    }

    public let function: String
    public let code: Code
    public let message: String
    /// libgit2's error class (`GIT_ERROR_NET`, `GIT_ERROR_SSH`, ...), 0 when unknown.
    public var errorClass: Int32 = 0
    /// What a transfer's callbacks learnt about the failure, when it failed in a transfer.
    public var transferFailure: TransferFailure? = nil

    public init(function: String, code: Code, message: String) {
        self.function = function
        self.code = code
        self.message = message
    }

    /// The failure in the terms a user acts on.
    public var failure: TransferFailure {
        if let transferFailure { return transferFailure }
        switch code {
        case .auth: return .authentication
        case .notFound: return .notFound
        case .nonFastForward: return .rejected
        default:
            let network = [GIT_ERROR_NET, GIT_ERROR_SSH, GIT_ERROR_HTTP, GIT_ERROR_OS, GIT_ERROR_SSL]
            return network.contains { Int32($0.rawValue) == errorClass } ? .unreachable : .other
        }
    }

    public var description: String { "\(function) failed: \(message)" }

    /// libgit2 gave up on the work tree because its folders nest deeper than it walks (100):
    /// a generic failure (-1) of the repository class, which is how its iterator reports that
    /// limit. Decided by code and class, not by the wording of the message.
    var isNestingLimit: Bool {
        code == .other(GIT_ERROR.rawValue) && errorClass == Int32(GIT_ERROR_REPOSITORY.rawValue)
    }

    /// Reads libgit2's thread-local last error; call it right after the failing call.
    static func last(_ function: String, _ raw: Int32) -> GitError {
        var message = "error \(raw)"
        var errorClass: Int32 = 0
        if let err = git_error_last() {
            errorClass = err.pointee.klass
            if let text = err.pointee.message {
                message = String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        var error = GitError(function: function, code: Code(raw), message: message)
        error.errorClass = errorClass
        return error
    }
}

/// Throws a `GitError` naming `function` when `result` is negative; returns it otherwise.
@discardableResult
func check(_ result: Int32, _ function: String) throws(GitError) -> Int32 {
    if result < 0 { throw GitError.last(function, result) }
    return result
}
