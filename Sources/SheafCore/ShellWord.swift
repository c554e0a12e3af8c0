// A word written into a command Sheaf suggests (`to join it: sheaf join URL PATH`), quoted so
// that pasting the suggestion runs exactly that command: a path or URL from synced content may
// hold spaces, quotes, `$(...)` or a `;`, which must stay text.
import Foundation

public enum ShellWord {
    /// `word` as one POSIX shell word: as it is when every character is plainly safe, else in
    /// single quotes (a single quote inside written as `'\''`).
    public static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "@%+=:,./_-".unicodeScalars.contains(scalar))
        }
        if plain { return word }
        return singleQuoted(word)
    }

    /// `word` in single quotes, each `'` inside written `'\''`, scalar by scalar (as the shell
    /// reads it): a replacement by Character passed over a `'` that a combining mark follows,
    /// which ended the quoted word early and let the rest of it (a synced note's name in a
    /// completion) run as shell code.
    public static func singleQuoted(_ word: String) -> String {
        "'" + word.replacingScalars(["'": "'\\''"]) + "'"
    }
}
