// `-i`: pick a note interactively with fzf, which reads the keyboard from the terminal while Sheaf
// feeds it the vault's notes (title and path) on its standard input and reads the choice back.
// fzf shows the lines on the terminal, so titles and paths go as `ShownText.name` shows them, one
// note per line whatever its name holds; the choice comes back as the note's number.
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
        let lines = notes.enumerated().map { "\($0)\t\(ShownText.name($1.title))\t\(ShownText.name($1.path))\n" }.joined()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: fzf)
        // Show and search the title and path; the line printed starts with the note's number.
        process.arguments = ["--delimiter=\t", "--with-nth=2,3", "--prompt=note> ", "--select-1", "--exit-0"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(lines.utf8))
        try? input.fileHandleForWriting.close()
        let chosen = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let number = chosen.split(separator: "\t").first.flatMap({ Int($0) }), notes.indices.contains(number) else {
            throw ExitCode(1)
        }
        return notes[number].path
    }

    private static func findFZF() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { $0 + "/fzf" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
