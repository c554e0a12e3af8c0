import ArgumentParser
import Foundation
import SheafCore
import SheafKit

extension ColorChoice: ExpressibleByArgument {}

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: "The vault to use (default: $SHEAF_VAULT, else the folder holding .sheaf/ above the working directory).")
    var vault: String?

    @Flag(name: [.short, .long], help: "Print no warnings.")
    var quiet = false

    @Flag(name: [.short, .long], help: "Print more detail.")
    var verbose = false

    @Option(name: .long, help: "Colour: auto (on a terminal, unless NO_COLOR or TERM=dumb), always or never.")
    var color: ColorChoice = .auto

    @Flag(name: .customLong("no-pager"), help: "Print long output straight to the terminal, without $PAGER.")
    var noPager = false

    /// The options as plain values.
    var settings: GlobalSettings {
        GlobalSettings(vault: vault, quiet: quiet, verbose: verbose, color: color, noPager: noPager)
    }

    func apply() { settings.apply() }

    /// Applies the output flags and opens the vault; its events are shown as every command but
    /// `watch` shows them (`EventLines.command`), unless `showingEvents` is false.
    func open(showingEvents: Bool = true) throws(SheafError) -> VaultSession {
        try settings.open(showingEvents: showingEvents)
    }
}

/// What the global options say: what GlobalOptions holds once ArgumentParser has read them, and
/// what a command line read without it (SearchRequest) fills in.
struct GlobalSettings: Equatable {
    var vault: String?
    var quiet = false
    var verbose = false
    var color: ColorChoice = .auto
    var noPager = false

    func apply() {
        Terminal.quiet = quiet
        Terminal.verbose = verbose
        Terminal.colorChoice = color
        Terminal.noPager = noPager
    }

    /// `GlobalOptions.open`.
    func open(showingEvents: Bool = true) throws(SheafError) -> VaultSession {
        apply()
        let session = try VaultSession.open(explicit: vault)
        if let problem = session.config.problem {
            Terminal.warn("cannot read .sheaf/config.toml (\(text: problem)); using the default settings")
        }
        for ignored in session.config.ignored { Terminal.warn(".sheaf/config.toml: \(ignored); it is ignored") }
        if showingEvents { session.subscribe(EventLines.command()) }
        return session
    }
}

/// Shows the warnings about the vault's files: each once per change of its file, all with -v.
func reportWarnings(_ session: VaultSession) throws {
    for w in try session.warningsToShow(all: Terminal.verbose) { Terminal.warn("\(w)") }
}
