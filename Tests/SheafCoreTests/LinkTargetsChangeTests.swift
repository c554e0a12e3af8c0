import SheafCore
import Testing

/// `LinkTargets.Change` lets `mv` and `rm` resolve only the links a change can concern
/// (VaultSession+LinkingNotes): a link it says no to must reach the same file before and after.
@Suite struct LinkTargetsChangeTests {
    /// A small universe of names, folders and link forms, so that names collide often.
    struct Universe {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        mutating func pick<T>(_ items: [T]) -> T { items[next(items.count)] }

        static let folders = ["", "A/", "A/B/", "b/", "Trips/", "trips/"]
        static let names = ["lisbon", "Lisbon", "plan", "a", "b", "photo"]
        static let extensions = [".md", ".md", ".png", ".MD"]

        mutating func path() -> String { pick(Self.folders) + pick(Self.names) + pick(Self.extensions) }
        mutating func target() -> String {
            let name = pick(Self.names)
            switch next(7) {
            case 0: return name
            case 1: return name + ".md"
            case 2: return pick(Self.folders) + name
            case 3: return "./" + name + pick(Self.extensions)
            case 4: return "../" + pick(Self.folders) + name
            case 5: return "/" + pick(Self.folders) + name + ".md"
            default: return pick([".", "..", "A/", "b//" + name, "A/../" + name, name + "/", name + ".", "../" + name + "/.."])
            }
        }
    }

    @Test func aLinkTheChangeDoesNotConcernReachesTheSameFile() {
        var u = Universe(state: 1)
        var checked = 0
        for _ in 0..<400 {
            var paths: [String] = []
            for _ in 0..<(4 + u.next(8)) { let p = u.path(); if !paths.contains(p) { paths.append(p) } }
            let from = paths[u.next(paths.count)]
            let to = u.path()
            guard !paths.contains(to) else { continue }
            var before = LinkTargets(paths: paths)
            var after = before
            after.remove(from)
            after.add(to)
            let change = LinkTargets.Change(paths: [from, to])
            for _ in 0..<30 {
                let target = u.target(), notePath = u.path()
                let old = before.resolve(target, from: notePath)
                let new = after.resolve(target, from: notePath)
                let moved = old == from ? to : old
                if !change.mayConcern(target, from: notePath) {
                    #expect(new == moved, "\(target) from \(notePath), moving \(from) to \(to) among \(paths)")
                    checked += 1
                }
            }
            before = after
        }
        #expect(checked > 1000)
    }
}
