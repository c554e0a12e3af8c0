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
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
