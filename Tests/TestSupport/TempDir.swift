// The one temporary folder of the test targets: a fresh folder under the system's temporary
// directory (TMPDIR), named `sheaf-<label>-<UUID>`, so parallel tests never share one.
import Foundation

/// A temporary folder removed when the value goes away (keep it alive for as long as the test
/// uses the folder: `let temp = TempDir()`).
public final class TempDir: Sendable {
    /// The folder's absolute path.
    public let path: String

    /// Creates `sheaf-<label>-<UUID>` in the temporary directory.
    public init(_ label: String = "test") {
        path = TempDir.make(label)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Creates a fresh folder and returns its path; the caller removes it.
    public static func make(_ label: String = "test") -> String {
        let path = NSTemporaryDirectory() + "sheaf-\(label)-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
