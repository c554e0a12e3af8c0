// `-i`: pick a note interactively with fzf, which reads the keyboard from the terminal while Sheaf
// feeds it the vault's notes (title and path) on its standard input and reads the choice back.
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
        let lines = notes.map { $0.path + "\t" + $0.title }.joined(separator: "\n") + "\n"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: fzf)
        // Show the title, search title and path, print the path.
        process.arguments = ["--delimiter=\t", "--with-nth=2,1", "--prompt=note> ", "--select-1", "--exit-0"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(lines.utf8))
        try? input.fileHandleForWriting.close()
        let chosen = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let first = chosen.split(separator: "\n").first,
              let path = first.split(separator: "\t").first, !path.isEmpty else {
            throw ExitCode(1)
        }
        return String(path)
    }

    private static func findFZF() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { $0 + "/fzf" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
