// Reading `.sheaf/config.toml` from disk. What the file means is SheafCore's `VaultConfig`
// (pure: text in, settings out); only the read lives here, so SheafCore touches no file.
import Foundation
import SheafCore

extension VaultConfig {
    /// The vault's settings; the defaults when it has no config file.
    public static func load(_ vault: Vault) -> VaultConfig {
        VaultConfig(contents: FileManager.default.contents(atPath: vault.configPath))
    }
}
