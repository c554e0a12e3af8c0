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

    /// LinkTargets lower-cases a path once and cuts its name and stem keys from that: the same
    /// keys as lower-casing the name and the stem apart, for names whose lower case could depend
    /// on what surrounds them (Greek final sigma before `.md`, dotted I, sharp s, the Kelvin sign,
    /// decomposed accents); a link by each name still reaches its note.
    @Test func nameAndStemKeysCutFromTheLowerCasedPathAreTheLowerCasedNameAndStem() {
        let paths = ["Α/ΟΔΟΣ.md", "ΟΔΟΣ.png", "İstanbul/İZMİR.md", "STRASSE/Straße.MD", "\u{212A}elvin.md", "Cafe\u{301}/E\u{301}TE\u{301}.md",
                     "a.b.c/D.E.md", "Σ/Σ.Σ"]
        for path in paths {
            let key = path.lowercased()
            #expect(Array(VaultPath.fileName(key).utf8) == Array(VaultPath.fileName(path).lowercased().utf8), "\(path)")
            #expect(Array(VaultPath.stem(key).utf8) == Array(VaultPath.stem(path).lowercased().utf8), "\(path)")
        }
        let targets = LinkTargets(paths: paths)
        for path in paths where VaultPath.isNote(path) {
            #expect(targets.resolve(VaultPath.stem(path), from: "elsewhere/x.md") == path)
        }
    }
}
