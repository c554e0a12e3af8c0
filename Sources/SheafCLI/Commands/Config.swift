import ArgumentParser
import SheafCore
import SheafKit

struct Config: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "config",
        abstract: "Read or change device-local settings (.sheaf/config.toml).",
        subcommands: [Get.self, Set.self])

    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration.sheaf(commandName: "get", abstract: "Print a setting.")
        @Argument(help: "The key: device or remote.") var key: String
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let session = try global.open()
            if key == "device" { Terminal.out("\(session.device)"); return }
            guard let value = session.config[key] else { throw ExitCode(1) }
            Terminal.out("\(value)")
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration.sheaf(commandName: "set", abstract: "Change a setting.")
        @Argument(help: "The key: device or remote.") var key: String
        @Argument(help: "The new value.") var value: String
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard VaultConfig.knownKeys.contains(key) else {
                throw ValidationError("unknown setting '\(key)'; known: \(VaultConfig.knownKeys.joined(separator: ", "))")
            }
        }

        func run() throws {
            try global.open().setConfig(key, value)
        }
    }
}
