// `sheaf serve`: the vault in a browser, on 127.0.0.1 unless --listen says otherwise. Prints the
// URL to open (it holds the access token) on stdout, and the in-process watcher's events on
// stderr as `sheaf watch` does. Runs until SIGINT or SIGTERM. Security model: docs/serve.md.
// The server itself runs in `sheaf-serve` (ServeLaunch.swift): parsed and validated here, the
// command becomes that executable, which parses it again and serves in the same process.
import ArgumentParser
import Foundation
import SheafCore
import SheafKit

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "serve",
        abstract: "Serve the vault to a web browser.",
        discussion: """
            Prints an address holding a random access token: open it in a browser. Listens on \
            127.0.0.1 only, unless --listen names another address, which also needs TLS \
            (--tls-cert and --tls-key, PEM files: the server then speaks https) or \
            --insecure-listen (plain HTTP). Keeps the index fresh and syncs in \
            the background as `sheaf watch` does. See docs/serve.md.
            """)

    @Option(help: "The port (0: any free port).") var port: Int = 8421
    @Option(help: "The address to listen on.") var listen: String = "127.0.0.1"
    @Flag(name: .customLong("insecure-listen"), help: "Allow --listen beyond this machine without TLS.") var insecureListen = false
    @Option(name: .customLong("tls-cert"), help: ArgumentHelp("Serve https with this certificate chain (PEM).", valueName: "file")) var tlsCert: String?
    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The certificate's private key (PEM).", valueName: "file")) var tlsKey: String?
    @Flag(name: .customLong("read-only"), help: "Serve no route that changes the vault.") var readOnly = false
    @Flag(name: .customLong("no-sync"), help: "Never commit or sync in the background.") var noSync = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
    }

    func run() throws {
        guard let server = Sheaf.server else {
            try SiblingExecutable.become(Sheaf.serverExecutable, arguments: CommandLine.arguments,
                                         missing: "`sheaf serve` runs in it")
        }
        try server(ServeLaunch(port: port, listen: listen, insecureListen: insecureListen, tlsCertificate: tlsCert,
                               tlsKey: tlsKey, readOnly: readOnly, sync: !noSync,
                               open: { () throws(SheafError) in try global.open(showingEvents: false) },
                               announce: { url in Terminal.out("Open \(text: url)") }, events: EventLines.watch()))
    }
}
