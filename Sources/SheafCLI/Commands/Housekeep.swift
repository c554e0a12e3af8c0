// `sheaf housekeep` (hidden): packs the loose objects without the writer lock, then runs
// `git gc --auto` under it (VaultSession+Housekeeping), in a process of its own that the commands
// which add objects (commit, pull, push, sync) start detached once they have answered
// (`Housekeeping.startIfDue`), so a gc that takes minutes is never in the foreground.
import ArgumentParser
import Foundation
import SheafKit
#if canImport(Glibc)
import Glibc
#endif

struct Housekeep: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "housekeep",
        abstract: "Pack loose objects, then run `git gc --auto` under the writer lock (started by commit, pull, push and sync).",
        shouldDisplay: false)

    @Flag(help: .hidden) var detached = false
    @OptionGroup var global: GlobalOptions

    /// Run by hand, it waits for a housekeeper at work and then does what is still due; started
    /// by a command (`--detached`), it leaves the work to one at work, so that commands run in a
    /// quick row during a long packing do not each leave a process waiting.
    func run() throws {
        try global.open(showingEvents: false).collectGarbage(waitingForAnother: !detached)
    }
}

enum Housekeeping {
    /// Starts `sheaf housekeep` for `session`'s vault when its command added objects: in a process
    /// group of its own (the terminal's signals are not for it), every standard stream on /dev/null (a caller
    /// reading this command's output is not kept waiting for the gc), not waited for.
    static func startIfDue(_ session: VaultSession) {
        guard session.housekeepingDue else { return }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return }
        let executable = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), empty = sigset_t()
        sigfillset(&defaults)
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)  // every signal as a new process has it
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)  // a process group of its own: the terminal's ^C is not for it
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let arguments: [String] = [executable, "housekeep", "--detached", "--vault", session.vault.root]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        _ = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
    }
}
