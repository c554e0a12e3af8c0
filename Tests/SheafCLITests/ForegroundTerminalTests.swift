// `show -i`, `edit -i` and the editor on a real terminal with job control: an interactive bash in
// tmux, where every command line is its own process group and only the foreground one may read
// the keyboard. A child Sheaf started in a group of its own was stopped by the terminal (SIGTTIN)
// and drew nothing.
import Foundation
import Testing
import TestSupport

@Suite struct ForegroundTerminalTests {
    /// A tmux server of its own (its socket in the test's folder) running an interactive bash.
    final class Screen {
        let socket: String
        let directory: String
        init(_ temp: TempDir, directory: String) {
            socket = temp.path + "/tmux.sock"
            self.directory = directory
            let rc = temp.path + "/bashrc"
            CLI.write("PS1='$ '\nset -m\nexport PATH=\(URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path):$PATH\n", to: rc)
            tmux(["new-session", "-d", "-x", "120", "-y", "30", "-c", directory, "bash --noprofile --rcfile \(rc) -i"])
        }
        deinit { tmux(["kill-server"]) }

        @discardableResult
        func tmux(_ arguments: [String]) -> String {
            runProcess("/usr/bin/tmux", ["-S", socket] + arguments, in: directory, environment: ["TERM": "xterm-256color"]).stdout
        }
        func type(_ text: String) { tmux(["send-keys", "-l", text]) }
        func press(_ key: String) { tmux(["send-keys", key]) }
        var text: String { tmux(["capture-pane", "-p"]) }

        /// Waits (up to 20 s) until the screen shows `expected`.
        func waitFor(_ expected: String) -> Bool {
            eventually(timeout: 20) { self.text.contains(expected) }
        }
    }

    static var haveTools: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") && FileManager.default.isExecutableFile(atPath: "/usr/bin/fzf")
    }

    @Test func showDashIDrawsFzfUnderAShellWithJobControl() {
        guard Self.haveTools else { return }
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let screen = Screen(temp, directory: vault)
        #expect(screen.waitFor("$"))
        screen.type("sheaf show -i --no-pager; echo picker-exit=$?")
        screen.press("Enter")
        #expect(screen.waitFor("note>"), "fzf never drew its prompt:\n\(screen.text)")
        screen.type("Tram 28")
        // fzf filters on a thread of its own; Enter before it has takes the unfiltered list's top
        // note (a loaded machine took `1-1 with Priya`, which the query does not match).
        #expect(eventually(timeout: 20) { !screen.text.contains("with Priya") }, "fzf never filtered:\n\(screen.text)")
        screen.press("Enter")
        #expect(screen.waitFor("picker-exit=0"), "\(screen.text)")
        #expect(screen.text.contains("Tram 28"))
    }

    @Test func theEditorReadsTheKeyboardUnderAShellWithJobControl() {
        guard Self.haveTools else { return }
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        // An "editor" that asks at the terminal, as every terminal editor does, and appends the answer.
        let editor = temp.path + "/ask-editor"
        CLI.write("#!/bin/sh\nprintf 'line to add: ' >/dev/tty\nread line </dev/tty\necho \"$line\" >> \"$1\"\n", to: editor)
        chmod(editor, 0o755)
        let screen = Screen(temp, directory: vault)
        #expect(screen.waitFor("$"))
        screen.type("EDITOR=\(editor) sheaf edit 'Tram 28'; echo editor-exit=$?")
        screen.press("Enter")
        #expect(screen.waitFor("line to add:"), "the editor was stopped before it asked:\n\(screen.text)")
        screen.type("typed at the terminal")
        screen.press("Enter")
        #expect(screen.waitFor("editor-exit=0"), "\(screen.text)")
        #expect(CLI.run(["show", "Tram 28"], in: vault).stdout.contains("typed at the terminal"))
    }
}
