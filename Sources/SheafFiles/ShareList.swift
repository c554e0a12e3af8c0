// Which parts of a vault are shares: a tracked file at the vault's root, `.sheaf-shares`, one
// share per line as a small JSON object (`{"path":"Projects/Alpha","remote":"https://…"}`). It
// travels with the vault's repository, so the owner's other devices learn of every share; it holds
// paths and URLs, never credentials. The file comes from a remote like any synced content: every
// line is checked (a path the vault-path guard refuses, the vault's root, a URL with a password or
// a control character, a share inside another) and a line that fails is left out with a reason.
// One line per share keeps two devices' additions mergeable line by line.
import Foundation
import SheafCore

/// One share: a folder, or a single note, that syncs with its own remote.
public struct Share: Sendable, Equatable, Hashable, Codable {
    /// Vault-relative path of the shared folder or note.
    public let path: String
    /// The share's remote (no credentials: those come from git's credential helper).
    public let remote: String

    public init(path: String, remote: String) {
        self.path = path
        self.remote = remote
    }

    /// A single note is shared, not a folder.
    public var isNote: Bool { VaultPath.isNote(path) }

    /// The folder that is the share repository's work tree: the shared folder, or the folder
    /// holding the shared note.
    public var mount: String { isNote ? VaultPath.folder(path) : path }

    /// Whether the vault path `candidate` belongs to this share.
    public func holds(_ candidate: String) -> Bool {
        // Byte for byte, as every path of the vault is compared: an NFD twin of a shared name
        // (Swift's `==` takes the two for one) is another file, not the share's.
        if isNote { return PathBytes.same(candidate, path) }
        return PathBytes.same(candidate, path)
            || (candidate.utf8.starts(with: path.utf8) && candidate.utf8.dropFirst(path.utf8.count).first == UInt8(ascii: "/"))
    }

    /// `candidate` (a vault path this share holds) relative to the share's work tree.
    public func relative(_ candidate: String) -> String {
        mount.isEmpty ? candidate : String(decoding: candidate.utf8.dropFirst(mount.utf8.count + 1), as: UTF8.self)
    }

    /// A path of the share's repository as a vault path.
    public func vaultPath(_ shareRelative: String) -> String {
        VaultPath.join(mount, shareRelative)
    }

    /// Whether a path of the share's repository may be there: a note share holds its one file
    /// and that note's conflict files (`<stem>.conflict-<time>-<device>.md`, beside it).
    public func admits(shareRelative: String) -> Bool {
        guard isNote else { return true }
        let name = VaultPath.fileName(path)
        if PathBytes.same(shareRelative, name) { return true }
        let stem = VaultPath.stem(name)
        return !shareRelative.contains("/") && shareRelative.hasPrefix(stem + ".conflict-")
            && VaultPath.fileExtension(shareRelative) == VaultPath.fileExtension(name) && ConflictName.isConflict(shareRelative)
    }
}

/// The parsed `.sheaf-shares`: the shares that passed the checks, and why the others did not.
public struct ShareList: Sendable, Equatable {
    /// The file's path in the vault.
    public static let fileName = ".sheaf-shares"

    public private(set) var shares: [Share]
    /// Lines left out, each with its reason.
    public private(set) var problems: [String] = []

    public init(shares: [Share] = []) {
        self.shares = []
        for share in shares { _ = add(share) }
    }

    /// Reads the file's text; nil text is an empty list.
    public init(text: String?) {
        self.shares = []
        guard let text else { return }
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let trimmed = line.trimmingHorizontalWhitespace
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let share = Self.decode(trimmed) else {
                problems.append("line \(number + 1) of \(Self.fileName) is not a share (`{\"path\":…,\"remote\":…}`)")
                continue
            }
            if let reason = add(share) { problems.append("line \(number + 1) of \(Self.fileName): \(reason)") }
        }
    }

    /// The share holding `path`, if any.
    public func share(holding path: String) -> Share? {
        shares.first { $0.holds(path) }
    }

    public func share(at path: String) -> Share? {
        shares.first { PathBytes.same($0.path, path) }
    }

    /// Adds a share; a reason (and nothing added) when it is refused.
    @discardableResult
    public mutating func add(_ share: Share) -> String? {
        if let reason = Self.refusal(share) { return reason }
        if let other = shares.first(where: { $0.holds(share.path) || share.holds($0.path) }) {
            return "\(share.path) overlaps the share \(other.path)"
        }
        shares.append(share)
        return nil
    }

    public mutating func remove(path: String) {
        shares.removeAll { PathBytes.same($0.path, path) }
    }

    /// Why a share may not be: its path is not a safe vault path (or is the whole vault), its URL
    /// is empty, holds a control character, or carries a password.
    public static func refusal(_ share: Share) -> String? {
        if share.path.isEmpty { return "the whole vault cannot be a share" }
        if let refusal = VaultPathGuard.refusal(share.path) { return "\(share.path): \(refusal.description)" }
        if share.path == fileName { return "\(fileName) cannot be shared" }
        if share.remote.isEmpty { return "\(share.path) has no remote" }
        if share.remote.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
            return "the remote of \(share.path) holds a control character"
        }
        // By byte, as git and ssh read the URL: `-́o...` does not have the Character prefix "-",
        // and a `@`, `:` or `/` with a combining mark after it is no `@`, `:` or `/` Character.
        let url = Array(share.remote.utf8)
        if url.first == UInt8(ascii: "-") { return "the remote of \(share.path) starts with a dash" }
        let colon = UInt8(ascii: ":"), slash = UInt8(ascii: "/")
        if let at = url.firstIndex(of: UInt8(ascii: "@")),
           let scheme = url.indices.dropLast(2).first(where: { url[$0] == colon && url[$0 + 1] == slash && url[$0 + 2] == slash }),
           scheme + 3 < at, url[(scheme + 3)..<at].contains(colon) {
            return "the remote of \(share.path) carries a password (keep it in git's credential helper)"
        }
        return nil
    }

    /// The file's text: a comment line, then one share per line.
    public var text: String {
        var text = "# Shares of this vault (sheaf share, join, unshare, leave): one per line. See docs/sharing.md.\n"
        for share in shares { text += Self.encode(share) + "\n" }
        return text
    }

    // One object per line, keys in a fixed order: Foundation's JSON (`Share` is Codable).
    static func encode(_ share: Share) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(share)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    static func decode(_ line: String) -> Share? {
        try? JSONDecoder().decode(Share.self, from: Data(line.utf8))
    }
}
