// The systemd user unit and scripts/install-service: the unit installed for a vault (a path with
// a space in it) starts the sheaf the script found, its instance name turns back into the vault's
// path through systemd's own escaping, and systemd-analyze accepts it (where systemd is installed).
import Foundation
import Testing
import TestSupport

@Suite struct ServiceUnitTests {
    @Test func installServiceWritesAUnitWhoseInstanceNamesTheVault() throws {
        let temp = TempDir()
        let vault = temp.path + "/my notes"
        try FileManager.default.createDirectory(atPath: vault + "/.sheaf", withIntermediateDirectories: true)
        let script = CLI.packageRoot.appendingPathComponent("scripts/install-service").path
        let units = temp.path + "/units"
        let r = runProcess(script, ["--no-start", vault], in: temp.path,
                           environment: ["SHEAF": CLI.binary, "SYSTEMD_USER_DIR": units])
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-escape") else {
            #expect(r.status == 2 && r.stderr.contains("systemd-escape is missing"))
            return
        }
        #expect(r.status == 0, "\(r.stderr)")
        let unit = CLI.read(units + "/sheaf-watch@.service")
        let real = URL(fileURLWithPath: CLI.binary).resolvingSymlinksInPath().path
        #expect(unit.contains("\nExecStart=\(real) watch --vault %f\n"), "\(unit)")
        #expect(unit.contains("\nRestart=on-failure\n"))
        let line = try #require(r.stdout.split(separator: "\n").first { $0.contains("systemctl") })
        #expect(line.contains("--user") && line.contains("enable") && line.contains("--now"))
        let instance = try #require(line.split(separator: " ").first { $0.hasPrefix("sheaf-watch@") })
        // `%f` is "/" + the unescaped instance: it must be the vault's own path.
        let escaped = String(instance.dropFirst("sheaf-watch@".count).dropLast(".service".count))
            .replacingOccurrences(of: "\\\\", with: "\\")
        let back = runProcess("/usr/bin/systemd-escape", ["--unescape", "--path", escaped], in: temp.path)
        let canonical = URL(fileURLWithPath: vault).resolvingSymlinksInPath().path
        #expect(back.stdout.trimmingCharacters(in: .newlines) == canonical, "\(back.stdout) \(back.stderr)")

        if FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") {
            let named = units + "/sheaf-watch@\(escaped).service"
            try FileManager.default.copyItem(atPath: units + "/sheaf-watch@.service", toPath: named)
            let verify = runProcess("/usr/bin/systemd-analyze", ["verify", named], in: temp.path)
            #expect(verify.status == 0, "\(verify.stderr)")
        }
        let notVault = runProcess(script, ["--no-start", temp.path], in: temp.path, environment: ["SHEAF": CLI.binary])
        #expect(notVault.status == 2 && notVault.stderr.contains("not a vault"))
    }
}
