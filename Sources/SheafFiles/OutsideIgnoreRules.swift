// git's ignore rules that live outside the work tree's `.gitignore` files (`info/exclude`, the
// global excludes file), read from the files when git's configuration cannot name another
// excludes file. A read command then never starts libgit2 unless an ignore rule may apply: its
// start (loading it and its TLS library, which decodes every CA certificate) was 6-10 % of a
// search at 10k notes.
import Foundation
import SheafCore
#if canImport(Glibc)
import Glibc
#endif

public enum OutsideIgnoreRules {
    /// The rules' text, as `Repository.outsideIgnoreRules` reads it, or nil when this cannot be
    /// told without git's own configuration reader: a `.git` that is not a folder (a worktree's
    /// or submodule's pointer file), a configuration file that sets `core.excludesFile` in a way
    /// only git's reader can tell (`plainExcludesFile`) or that cannot be read, `GIT_CONFIG*`
    /// in the environment (but `GIT_CONFIG_NOSYSTEM`, which libgit2 does not honour: it reads
    /// /etc/gitconfig, and so does this), no HOME. A vault without `.git` has no git rules at all: "".
    public static func read(vaultRoot: String, environment: [String: String]) -> String? {
        let gitDirectory = vaultRoot + "/.git"
        var info = stat()
        if lstat(gitDirectory, &info) != 0 && errno == ENOENT { return "" }
        guard stat(gitDirectory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
              !environment.keys.contains(where: { $0.hasBytePrefix("GIT_CONFIG") && $0 != "GIT_CONFIG_NOSYSTEM" }),
              let home = environment["HOME"], !home.isEmpty else { return nil }
        let xdg = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
        // git's order: system, XDG, global, the repository's own; a later setting wins.
        var excludesFile: String?
        for config in ["/etc/gitconfig", (xdg ?? home + "/.config") + "/git/config", home + "/.gitconfig", gitDirectory + "/config"] {
            guard let text = readIfPresent(config), let setting = plainExcludesFile(in: text) else { return nil }
            if let value = setting {
                guard !value.isEmpty, value.hasBytePrefix("/") || value.hasBytePrefix("~/") else { return nil }
                excludesFile = value.hasBytePrefix("~/") ? home + value.dropFirst() : value
            }
        }
        var files = [gitDirectory + "/info/exclude"]
        if let excludesFile { files.append(excludesFile) }
        if let xdg { files.append(xdg + "/git/ignore") }
        files.append(home + "/.config/git/ignore")
        return files.compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }.joined(separator: "\n")
    }

    /// The `core.excludesFile` a configuration file sets (`.some(nil)` when it sets none), read
    /// only where the text is plain: nil for anything git's reader could take otherwise (an
    /// include, a quoted or escaped value, a line continued, a subsection of core).
    static func plainExcludesFile(in text: String) -> String?? {
        var section = ""
        var value: String?
        for raw in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let line = raw.trimmingHorizontalWhitespace
            if line.isEmpty || line.hasBytePrefix("#") || line.hasBytePrefix(";") { continue }
            if line.hasBytePrefix("[") {
                guard let close = line.utf8.firstIndex(of: UInt8(ascii: "]")) else { return nil }
                section = String(decoding: line.utf8[line.utf8.index(after: line.utf8.startIndex)..<close], as: UTF8.self)
                    .trimmingHorizontalWhitespace.lowercased()
                if section.hasBytePrefix("include") || section.hasBytePrefix("core ") || section.hasBytePrefix("core\"") { return nil }
                continue
            }
            guard section == "core" else { continue }
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts[0].trimmingHorizontalWhitespace.lowercased() == "excludesfile" else { continue }
            guard parts.count == 2 else { return nil }
            let text = parts[1].trimmingHorizontalWhitespace
            guard !text.contains(where: { "\"\\#;".contains($0) }) else { return nil }
            value = text
        }
        return .some(value)
    }

    /// The file's text, "" when there is no such file, nil when it is there but unreadable.
    private static func readIfPresent(_ path: String) -> String? {
        if let text = try? String(contentsOfFile: path, encoding: .utf8) { return text }
        return access(path, F_OK) != 0 && errno == ENOENT ? "" : nil
    }
}
