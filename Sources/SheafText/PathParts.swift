// Paths are split and compared at their bytes. Swift's String works in Characters, and a `/` or
// `.` followed by a combining mark (U+0301 and the like) is one Character with it: for
// `split(separator: "/")`, `hasPrefix("../")` and `lastIndex(of: "/")`, `../\u{301}x` holds no
// separator and `Link/\u{301}x.md` is a single name, while the file system sees `..` and `Link`.
// A check that looked at the Characters let such a path from a remote escape the vault or pass
// through a symlink; every path rule looks at the bytes instead, as the file system does.

extension StringProtocol {
    /// The `/`-separated parts, split at every `/` byte (a UTF-8 `/` is never part of another
    /// character's bytes, so this is also a split at scalars).
    public func pathParts(omittingEmpty: Bool = true, maxSplits: Int = Int.max) -> [Substring] {
        Substring(self).unicodeScalars
            .split(separator: "/", maxSplits: maxSplits, omittingEmptySubsequences: omittingEmpty)
            .map(Substring.init)
    }

    /// Whether the text starts with `prefix`, byte for byte.
    public func hasBytePrefix(_ prefix: String) -> Bool { utf8.starts(with: prefix.utf8) }

    /// Whether the text ends with `suffix`, byte for byte.
    public func hasByteSuffix(_ suffix: String) -> Bool { utf8.reversed().starts(with: suffix.utf8.reversed()) }
}

extension String {
    /// The text after `prefix` when it starts with it byte for byte, else nil (`dropFirst` counts
    /// Characters, and a prefix may end inside one of this text's Characters).
    public func droppingBytePrefix(_ prefix: String) -> String? {
        guard hasBytePrefix(prefix) else { return nil }
        return String(decoding: utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
    }
}
