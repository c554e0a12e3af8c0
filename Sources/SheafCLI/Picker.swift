// `-i`: pick a note interactively with fzf, which reads the keyboard from the terminal while Sheaf
// feeds it the vault's notes (title and path) on its standard input and reads the choice back.
// fzf runs in Sheaf's process group (ForegroundProcess), the terminal's foreground one. fzf
// shows the entries on the terminal, so titles and paths go as `ShownText.name` shows them; the
// choice comes back as the note's number.
import ArgumentParser
import Foundation
import SheafCore
import SheafKit

enum Picker {
    /// The path of the note the user picked; throws when fzf is missing or nothing was picked.
    static func pickNote(_ session: VaultSession) throws -> String {
        guard let fzf = findFZF() else {
            throw SheafError("-i needs fzf, which is not installed",
                             hint: "install it (apt install fzf), or name the note on the command line")
        }
        let notes = try session.list(folder: nil, tag: nil, sort: .modified, reverse: false, limit: nil)
        // Each entry is its number, title and path, NUL-terminated; fzf shows title and path and
        // prints the picked entry back, whose number names the note: the path Sheaf opens is the
        // one it listed, never what fzf printed.
        var input: [UInt8] = []
        for (number, note) in notes.enumerated() {
            input += Array("\(number)\t\(ShownText.name(note.title))\t\(ShownText.name(note.path))".utf8) + [0]
        }
        let (status, picked) = try ForegroundProcess.run(
            [fzf, "--read0", "--print0", "--delimiter=\t", "--with-nth=2,3", "--prompt=note> ", "--select-1", "--exit-0"],
            input: input, captureOutput: true)
        guard status == 0,
              let number = picked.split(separator: UInt8(ascii: "\t")).first.flatMap({ Int(String(decoding: $0, as: UTF8.self)) }),
              notes.indices.contains(number) else {
            throw ExitCode(1)
        }
        return notes[number].path
    }

    private static func findFZF() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { $0 + "/fzf" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
