// `sheaf serve`'s TLS options as a user meets them: a bad certificate or key stops the start with
// one line naming the file and exit code 2, before anything listens; the two options go together;
// and listening beyond this machine without TLS is refused with a hint at the TLS options.
import Foundation
import Testing
import TestSupport

@Suite struct ServeOptionsCLITests {
    @Test func aBadTLSFileStopsServeWithItsNameAndExitCode2() throws {
        let temp = TempDir("serve-cli")
        let vault = CLI.sampleVault(temp)
        CLI.write("not a certificate\n", to: temp.path + "/junk.pem")
        let missing = CLI.run(["serve", "--port", "0", "--tls-cert", temp.path + "/missing.crt", "--tls-key", temp.path + "/junk.pem"], in: vault)
        #expect(missing.status == 2 && missing.stdout.isEmpty)
        #expect(missing.stderr.hasPrefix("sheaf: cannot read the TLS certificate file: \(temp.path)/missing.crt\n"), "\(missing.stderr)")
        let junk = CLI.run(["serve", "--port", "0", "--tls-cert", temp.path + "/junk.pem", "--tls-key", temp.path + "/junk.pem"], in: vault)
        #expect(junk.status == 2 && junk.stderr.hasPrefix("sheaf: the TLS certificate file holds no PEM certificate: \(temp.path)/junk.pem\n"), "\(junk.stderr)")

        let alone = CLI.run(["serve", "--port", "0", "--tls-cert", temp.path + "/junk.pem"], in: vault)
        #expect(alone.status == 2 && alone.stderr.contains("--tls-cert and --tls-key go together"), "\(alone.stderr)")

        let beyond = CLI.run(["serve", "--port", "0", "--listen", "0.0.0.0"], in: vault)
        #expect(beyond.status == 2 && beyond.stderr.contains("will not listen beyond this machine without TLS") && beyond.stderr.contains("--tls-cert"), "\(beyond.stderr)")
    }
}
