import Foundation
import Testing
import TestSupport
@testable import SheafProcess

/// Helper programs run and waited for: what they are given, what comes back, how they ended.
@Suite struct ChildProcessTests {
    static func shell(_ script: String, input: [UInt8]? = nil, directory: String? = nil, environment: [String: String]? = nil,
                      output: ChildProcess.Output = .capture, errors: ChildProcess.Output = .capture) throws -> ChildProcess.Outcome {
        try ChildProcess.run(["/bin/sh", "-c", script], environment: environment, directory: directory,
                             input: input, output: output, errors: errors)
    }

    @Test func outputAndErrorsComeBackApartWithTheExitStatus() throws {
        let outcome = try Self.shell("echo out; echo err >&2; exit 3")
        #expect(String(decoding: outcome.output, as: UTF8.self) == "out\n")
        #expect(String(decoding: outcome.errors, as: UTF8.self) == "err\n")
        #expect(outcome.exitStatus == 3 && outcome.signal == nil && !outcome.succeeded && outcome.status == 3)
    }

    /// Input and output larger than a pipe holds, in both directions at once: nothing deadlocks,
    /// nothing is lost or reordered.
    @Test func megabytesInAndOutTogetherArriveWhole() throws {
        let input = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let outcome = try Self.shell("cat; cat /dev/zero | head -c 2000000 >&2", input: input)
        #expect(outcome.succeeded)
        #expect(outcome.output == input)
        #expect(outcome.errors.count == 2_000_000)
    }

    /// A child that exits without reading its input ends the writing; this process gets no SIGPIPE.
    @Test func aChildThatReadsNoInputIsNoHarm() throws {
        let outcome = try Self.shell("exit 0", input: [UInt8](repeating: 65, count: 4_000_000))
        #expect(outcome.succeeded)
    }

    @Test func aSignalIsReportedAsTheSignal() throws {
        let outcome = try Self.shell("kill -9 $$")
        #expect(outcome.exitStatus == nil && outcome.signal == 9 && outcome.status == 137)
    }

    @Test func streamedOutputArrivesInOrder() throws {
        var received: [UInt8] = []
        let outcome = try Self.shell("for i in 1 2 3 4 5; do echo line $i; done", output: .stream { received += $0 })
        #expect(outcome.succeeded && outcome.output.isEmpty)
        #expect(String(decoding: received, as: UTF8.self) == (1...5).map { "line \($0)\n" }.joined())
    }

    @Test func outputIntoADescriptorLandsInTheFile() throws {
        let temp = TempDir("child")
        let path = temp.path + "/out"
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        defer { close(fd) }
        _ = try Self.shell("printf abc", output: .descriptor(fd))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "abc")
    }

    @Test func theFolderTheEnvironmentAndAnEmptyStdin() throws {
        let temp = TempDir("child")
        let outcome = try Self.shell("pwd; echo \"$SHEAF_CHILD_TEST\"; wc -c", directory: temp.path,
                                     environment: ["SHEAF_CHILD_TEST": "given", "PATH": "/usr/bin:/bin"])
        let lines = String(decoding: outcome.output, as: UTF8.self).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines == [URL(fileURLWithPath: temp.path).resolvingSymlinksInPath().path, "given", "0"])
    }

    /// A descriptor this process opened without close-on-exec (a lock, say) is not the child's:
    /// a git left running could otherwise hold it long after Sheaf let go.
    @Test func theChildGetsNoDescriptorAboveStderr() throws {
        let temp = TempDir("child")
        let fd = open(temp.path + "/held", O_WRONLY | O_CREAT, 0o644)  // no O_CLOEXEC, on purpose
        defer { close(fd) }
        let outcome = try Self.shell("ls /proc/$$/fd")
        let open = String(decoding: outcome.output, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }.sorted()
        #expect(open.allSatisfy { $0 <= 2 || $0 == 255 }, "the child had \(open)")  // 255: dash's own script fd
        #expect(!open.contains(Int(fd)))
    }

    /// A group of its own, as Foundation's Process gave it: the terminal's ^C is Sheaf's to handle.
    @Test func theChildLeadsAProcessGroupOfItsOwn() throws {
        let outcome = try Self.shell("cut -d' ' -f5 /proc/$$/stat; echo $$")
        let words = String(decoding: outcome.output, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(words.count == 2 && words[0] == words[1])
        #expect(words.first != String(getpgrp()))
    }

    @Test func aMissingProgramIsAStartFailure() {
        #expect(throws: ChildProcess.StartFailure.self) {
            try ChildProcess.run(["/nonexistent/sheaf-no-such-program"])
        }
    }

    /// Regression, "a `sheaf attach` waited 55 ms on a thumbnailer that was done": Foundation's
    /// `Process.waitUntilExit` polls the run loop every 50 ms and, on the main thread, slept the
    /// whole interval after the child had exited (a `git --version` took 51 ms, 1.4 ms spawned
    /// here). No module of Sheaf's runs a helper through Foundation's Process again.
    @Test func noModuleRunsAHelperThroughFoundationsProcess() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let names = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.sorted()
        #expect(names.count > 100 && names.contains("SheafGit/Repository+GitCLI.swift"))
        let uses = names.flatMap { name -> [String] in
                let text = (try? String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8)) ?? ""
                return text.components(separatedBy: "\n").enumerated().compactMap { number, line in
                    let code = line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? line
                    return code.range(of: #"\bProcess\(\)|\bwaitUntilExit\("#, options: .regularExpression) != nil
                        ? "\(name):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))" : nil
                }
            }
        #expect(uses.isEmpty, "use SheafProcess's ChildProcess: \(uses)")
    }
}
