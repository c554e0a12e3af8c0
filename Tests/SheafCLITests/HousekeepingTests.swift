// `.git` is packed as git packs it after its own fetches: Sheaf's fetch runs git with auto-gc
// off and libgit2 never packs, so packs and loose objects grew without end (101 packs after 100
// pulls of 100 notes, each searched for every object a pull reads).
import Foundation
import TestSupport
import Testing

@Suite struct HousekeepingTests {
    private func packs(_ vault: String) -> Int {
        let out = Replicas.git(["count-objects", "-v"], in: vault).stdout
        let line = out.split(separator: "\n").first { $0.hasPrefix("packs: ") }
        return line.flatMap { Int($0.dropFirst("packs: ".count)) } ?? -1
    }

    @Test func packsPulledOneAfterAnotherAreGatheredAsGitWould() {
        let r = Replicas(2, samples: false)
        // Every fetch keeps its pack, and more than two packs are due for a gc.
        #expect(r.git(1, ["config", "transfer.unpackLimit", "1"]).status == 0)
        #expect(r.git(1, ["config", "gc.autoPackLimit", "2"]).status == 0)
        var expected = "# Start\n\nfirst line\n"
        for round in 1...4 {
            expected += "line \(round)\n"
            r.write(0, "Start.md", expected)
            #expect(r.sync(0).status == 0)
            let pulled = r.sync(1)
            #expect(pulled.status == 0, "\(pulled.stderr)")
            #expect(packs(r[1]) <= 2, "round \(round): \(packs(r[1])) packs")
        }
        #expect(r.file(1, "Start.md") == expected)
        #expect(r.git(1, ["fsck", "--no-progress"]).status == 0)
        // Turned off by the user's setting: nothing is gathered.
        #expect(r.git(1, ["config", "gc.auto", "0"]).status == 0)
        let before = packs(r[1])
        for round in 5...7 {
            expected += "line \(round)\n"
            r.write(0, "Start.md", expected)
            #expect(r.sync(0).status == 0)
            #expect(r.sync(1).status == 0)
        }
        #expect(packs(r[1]) == before + 3)
        #expect(r.file(1, "Start.md") == expected)
    }
}
