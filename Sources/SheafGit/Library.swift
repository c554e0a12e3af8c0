import CGit2

/// libgit2 must be initialised once per process before any other call.
enum Library {
    static let initialised: Bool = {
        git_libgit2_init()
        // Windows of 32 MB into pack files, at most 128 MB mapped at a time (libgit2's defaults
        // on 64 bits: 1 GB windows, 8 GB mapped): a pull at 100k notes touched pages of the
        // vault's whole pack through one window, and those pages counted in its peak memory.
        _ = sheaf_git_set_mwindow(32 << 20, 128 << 20)
        return true
    }()

    static func ensure() { _ = initialised }
}
