import ArgumentParser
import SheafCore
import SheafKit

struct Config: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "config",
        abstract: "Read or change device-local settings (.sheaf/config.toml).",
        subcommands: [Get.self, Set.self])

    /// A key Sheaf does not read is a usage error for `get` and `set` alike (an unset known key
    /// makes `get` exit 1 silently, as `git config` does).
    static func checkKnown(_ key: String) throws {
        guard VaultConfig.knownKeys.contains(key) else {
            throw ValidationError("unknown setting '\(key)'; known: \(VaultConfig.knownKeys.joined(separator: ", "))")
        }
    }

    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration.sheaf(commandName: "get", abstract: "Print a setting.")
        @Argument(help: "The key: device, remote, daily-folder, daily-format, daily-template or templates-folder.") var key: String
        @OptionGroup var global: GlobalOptions

        func validate() throws { try Config.checkKnown(key) }

        func run() throws {
            let session = try global.open()
            if key == "device" { Terminal.out("\(session.device)"); return }
            guard let value = session.config[key] else { throw ExitCode(1) }
            Terminal.out("\(value)")
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration.sheaf(commandName: "set", abstract: "Change a setting.")
        @Argument(help: "The key: device, remote, daily-folder, daily-format, daily-template or templates-folder.") var key: String
        @Argument(help: "The new value.") var value: String
        @OptionGroup var global: GlobalOptions

        func validate() throws { try Config.checkKnown(key) }

        func run() throws {
            try global.open().setConfig(key, value)
        }
    }
}
