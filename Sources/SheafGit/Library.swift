import CGit2

/// libgit2 must be initialised once per process before any other call.
enum Library {
    static let initialised: Bool = {
        git_libgit2_init()
        return true
    }()

    static func ensure() { _ = initialised }
}
