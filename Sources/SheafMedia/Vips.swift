// libvips for the whole process: started once (a `static let`, because starting and stopping it
// per call or per test aborts inside libvips), with the operation cache off so memory stays flat
// over thousands of thumbnails, and with every image loader blocked except the formats Sheaf
// thumbnails (files from a synced vault are not trusted; see `ImageFormat`).
import CVips
import SheafCore

enum Vips {
    /// nil when libvips started; else why it did not.
    static let startFailure: String? = {
        guard vips_init("sheaf") == 0 else { return takeError() ?? "vips_init failed" }
        sheaf_vips_silence_warnings()
        sheaf_vips_return_large_buffers()
        vips_cache_set_max(0)
        vips_cache_set_max_mem(0)
        vips_cache_set_max_files(0)
        // Sheaf runs one thumbnail per core itself; more threads per image would only add memory.
        vips_concurrency_set(1)
        vips_block_untrusted_set(1)
        vips_operation_block_set("VipsForeignLoad", 1)
        for loader in ImageFormat.allCases.map(\.loaderClass) { vips_operation_block_set(loader, 0) }
        return nil
    }()

    static func start() throws(SheafError) {
        if let failure = startFailure {
            throw SheafError("cannot start the image library (libvips)", cause: failure,
                             hint: "install libvips (scripts/setup) and try again")
        }
    }

    /// The text of libvips' last errors (its buffer is process-wide), cleared after reading.
    static func takeError() -> String? {
        guard let raw = vips_error_buffer_copy() else { return nil }
        defer { g_free(raw) }
        let lines = String(cString: raw).split(whereSeparator: \.isNewline).map(String.init)
        return lines.isEmpty ? nil : lines.joined(separator: "; ")
    }
}

/// One libvips object (an image or a source), released when the Swift value goes.
final class VipsObject<T> {
    let pointer: UnsafeMutablePointer<T>
    init(_ pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }
    deinit { sheaf_vips_unref(pointer) }
}
