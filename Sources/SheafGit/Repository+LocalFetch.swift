// Fetching from a remote on this machine (a path or file:// URL) in bounded memory. libgit2's
// local transport builds the pack in process and reads every object whole (a gigabyte of zeros,
// a megabyte packed, cost a gigabyte); git's own fetch streams large blobs through pack-objects
// and index-pack. So a local remote is fetched with `git fetch` when git is installed; when it
// is not, or that fetch fails for any reason, libgit2 fetches as before (and reports the error).
import Foundation

extension Repository {
    /// The folder a remote URL names when it is on this machine, else nil.
    static func localRemotePath(_ url: String) -> String? {
        if url.hasPrefix("file://") {
            let path = String(url.dropFirst("file://".count))
            return path.hasPrefix("/") ? path.removingPercentEncoding ?? path : nil
        }
        return url.hasPrefix("/") ? url : nil
    }

    /// Fetches `branch` of the repository at `path` into `tracking` with git's CLI; false when
    /// git is missing or the fetch failed (the caller then fetches with libgit2).
    func fetchWithGit(path: String, branch: String, tracking: String) -> Bool {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return false }
        // Blobs over the threshold are streamed instead of being read whole: by index-pack here,
        // and by the remote side's pack-objects, which gets the setting through --upload-pack
        // (git drops -c settings on the way to a local remote's upload-pack).
        let threshold = "core.bigFileThreshold=\(Self.streamingThreshold)"
        return runGit(["-c", threshold, "-c", "gc.auto=0", "-c", "maintenance.auto=false",
                       "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--no-recurse-submodules",
                       "--upload-pack=git -c \(threshold) upload-pack",
                       "--", path, "+refs/heads/\(branch):\(tracking)"])
    }
}
