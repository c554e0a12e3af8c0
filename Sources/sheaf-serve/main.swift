// `sheaf-serve`: the one executable linked with `sheaf serve`'s web server (SheafServe on
// Hummingbird, NIO and TLS), kept out of `sheaf` so that no other command maps it at start.
// `sheaf serve` becomes this executable (execve: same pid, streams and signals); it runs the same
// command line interface, with the server handed in.
import SheafCLI
import SheafServe

Sheaf.server = { launch in
    var options = ServeOptions()
    options.address = launch.listen
    options.port = launch.port
    options.readOnly = launch.readOnly
    options.insecureListen = launch.insecureListen
    if let certificate = launch.tlsCertificate, let key = launch.tlsKey {
        options.tls = ServeTLS(certificateFile: certificate, keyFile: key)
    }
    options.sync = launch.sync
    if let refusal = options.refusal() { throw refusal }
    let session = try launch.open()
    try SheafServer(vault: session.vault, options: options).run(running: launch.announce, events: launch.events)
}
Sheaf.run()
