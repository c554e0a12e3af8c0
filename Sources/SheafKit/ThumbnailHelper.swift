// The thumbnail helper, as the command line sees it: `sheaf` enables it at start (its own
// executable with a hidden subcommand), and the subcommand runs it. See SheafMedia's
// ThumbnailHelper.swift for why some images are decoded in a separate, memory-capped process.
import SheafMedia

public enum ThumbnailHelper {
    /// Thumbnails of large images, PDFs and SVGs are made by `executable subcommand SOURCE OUTPUT
    /// LONG-EDGE QUALITY` from now on.
    public static func enable(executable: String, subcommand: String) {
        ThumbnailIsolation.enable(command: [executable, subcommand])
    }

    /// The helper's work, in the helper process; returns the exit status.
    public static func run(source: String, output: String, longEdge: Int, quality: Int) -> Int32 {
        ThumbnailIsolation.runHelper(source: source, output: output, longEdge: longEdge, quality: quality)
    }
}
