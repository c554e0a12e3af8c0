// Shell completion of note names, folders, tags and templates. ArgumentParser writes the bash,
// zsh and fish scripts (`sheaf --generate-completion-script bash`); on TAB they call back into
// `sheaf`, which answers from the vault's index. A vault that cannot be opened completes nothing,
// quietly. Every candidate is a name anyone could have written (a clipped title, a path a remote
// pushed), so each leaves here as inert text for the shell that asked (`inert`).
import ArgumentParser
import Foundation
import SheafCore
import SheafKit

enum Completions {
    /// Note titles and vault paths (without `.md`) that start with the word typed.
    static let notes = CompletionKind.custom { words, _, prefix in
        guard let notes = summaries(open(words)) else { return [] }
        return inert(notes.flatMap { [$0.title, withoutExtension($0.path)] }, prefix: prefix)
    }

    /// Folders of the vault that start with the word typed.
    static let folders = CompletionKind.custom { words, _, prefix in
        guard let notes = summaries(open(words)) else { return [] }
        return inert(notes.flatMap { note in
            let parts = note.path.pathParts().dropLast()
            return parts.indices.map { parts[...$0].joined(separator: "/") }
        }, prefix: prefix)
    }

    /// Tags in use that start with the word typed (with or without `#`).
    static let tags = CompletionKind.custom { words, _, prefix in
        guard let session = open(words), let counts = try? session.tagCounts() else { return [] }
        let hash = prefix.hasPrefix("#") ? "#" : ""
        return inert(counts.map { hash + $0.tag }, prefix: prefix)
    }

    /// Templates (notes in the templates folder, named from it, without `.md`) for `--template`.
    static let templates = CompletionKind.custom { words, _, prefix in
        guard let session = open(words), let notes = summaries(session) else { return [] }
        let folder = session.templateSettings().folder
        let inside = folder.isEmpty ? "" : folder + "/"
        return inert(notes.map(\.path).filter { $0.hasPrefix(inside) }.map { withoutExtension(String($0.dropFirst(inside.count))) },
                     prefix: prefix)
    }

    /// The candidates that start with `prefix` (in any case), each once, in order, as inert text for
    /// the shell that asks: control characters (a newline would split a candidate in two) are
    /// removed, then each is quoted the way that shell's script reads it. bash's `compgen -W`
    /// expands every word it is given (`$(...)`, backquotes, `$VAR`, `~`, braces), so a word
    /// reaches it single-quoted; zsh's `_describe` reads `\` and `:` (which starts a
    /// description), so those are escaped; fish takes each line as it is, up to a tab (removed
    /// with the control characters).
    ///
    /// bash and zsh keep only the candidates that start with the typed word in its own case, where
    /// Sheaf names notes in any case: when none does, those that match but for case go to them
    /// with the typed letters in front (`can` offers `canvas`), which names the same note.
    static func inert(_ candidates: [String], prefix: String, shell: CompletionShell? = CompletionShell.requesting) -> [String] {
        let lowered = prefix.lowercased()
        var words = Set(candidates.map(ShownText.withoutControls)).filter { !$0.isEmpty && $0.lowercased().hasPrefix(lowered) }
        if shell == .bash || shell == .zsh, !words.contains(where: { $0.hasPrefix(prefix) }) {
            words = Set(words.compactMap { word in
                word.prefix(prefix.count).lowercased() == lowered ? prefix + word.dropFirst(prefix.count) : nil
            })
        }
        return words.sorted().map { word in
            switch shell {
            case .bash?: return ShellWord.singleQuoted(word)
            case .zsh?: return word.replacingScalars(["\\": "\\\\", ":": "\\:"])
            default: return word
            }
        }
    }

    private static func withoutExtension(_ path: String) -> String {
        path.hasSuffix(".md") ? String(path.dropLast(3)) : path
    }

    private static func summaries(_ session: VaultSession?) -> [(path: String, title: String)]? {
        guard let session,
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
        return try? VaultSession.open(explicit: explicit)  // no subscriber: completion says nothing
    }
}
