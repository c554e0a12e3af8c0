// `sheaf lsp`: the vault inside an editor. A Language Server Protocol server on standard input
// and output (SheafLSP), for the vault it is started in or the editor's workspace folder; it runs
// the vault's watcher itself, so its answers are fresh. docs/lsp.md.
import ArgumentParser
import SheafLSP
#if canImport(Glibc)
import Glibc
#endif

struct Lsp: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "lsp",
        abstract: "Serve the vault to an editor (Language Server Protocol on stdin/stdout).",
        discussion: "Started by the editor, not by hand: link and tag completion, go to definition, references, hover, symbols and diagnostics for broken links. See docs/lsp.md for the settings of Neovim, Helix, VS Code and Emacs.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.apply()
        let code = LanguageServer(explicitVault: global.vault).run()
        throw ExitCode(code)
    }
}
