// Shell completion of note names, folders and tags. ArgumentParser writes the bash, zsh and fish
// scripts (`sheaf --generate-completion-script bash`); on TAB they call back into `sheaf`, which
// answers from the vault's index. A vault that cannot be opened completes nothing, quietly.
import ArgumentParser
import Foundation
import SheafKit

enum Completions {
    /// Note titles and vault paths (without `.md`) that start with the word typed.
    static let notes = CompletionKind.custom { words, _, prefix in
        guard let notes = summaries(words) else { return [] }
        var out = Set<String>()
        for n in notes {
            let path = n.path.hasSuffix(".md") ? String(n.path.dropLast(3)) : n.path
            for candidate in [n.title, path] where matches(candidate, prefix) { out.insert(candidate) }
        }
        return out.sorted()
    }

    /// Folders of the vault that start with the word typed.
    static let folders = CompletionKind.custom { words, _, prefix in
        guard let notes = summaries(words) else { return [] }
        var out = Set<String>()
        for n in notes {
            var parts = n.path.split(separator: "/").dropLast()
            while !parts.isEmpty {
                let folder = parts.joined(separator: "/")
                if matches(folder, prefix) { out.insert(folder) }
                parts = parts.dropLast()
            }
        }
        return out.sorted()
    }

    /// Tags in use that start with the word typed (with or without `#`).
    static let tags = CompletionKind.custom { words, _, prefix in
        guard let session = open(words), let counts = try? session.tagCounts() else { return [] }
        let bare = prefix.hasPrefix("#") ? String(prefix.dropFirst()) : prefix
        return counts.map(\.tag).filter { matches($0, bare) }.map { prefix.hasPrefix("#") ? "#" + $0 : $0 }
    }

    private static func matches(_ candidate: String, _ prefix: String) -> Bool {
        prefix.isEmpty || candidate.lowercased().hasPrefix(prefix.lowercased())
    }

    private static func summaries(_ words: [String]) -> [(path: String, title: String)]? {
        guard let session = open(words),
              let notes = try? session.list(folder: nil, tag: nil, sort: .path, reverse: false, limit: nil) else { return nil }
        return notes.map { ($0.path, $0.title) }
    }

    /// The vault named by `--vault` among the words, else the one found from here.
    private static func open(_ words: [String]) -> VaultSession? {
        var explicit: String?
        for (i, w) in words.enumerated() {
            if w == "--vault", i + 1 < words.count { explicit = words[i + 1] }
            if w.hasPrefix("--vault=") { explicit = String(w.dropFirst(8)) }
        }
        let session = try? VaultSession.open(explicit: explicit)
        session?.onIndexBusy = {}
        session?.onWarning = { _ in }
        return session
    }
}
