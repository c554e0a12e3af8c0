@testable import SheafCore
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
        static let names = ["lisbon", "Lisbon", "plan", "a", "b", "photo", "caf\u{E9}", "cafe\u{301}", "plan.md", "x;y", "x\u{37E}y"]
        static let extensions = [".md", ".md", ".png", ".MD", ".markdown"]

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
            // By bytes: NFC and NFD twins are two files.
            for _ in 0..<(4 + u.next(8)) { let p = u.path(); if !paths.contains(where: { PathBytes.same($0, p) }) { paths.append(p) } }
            let from = paths[u.next(paths.count)]
            let to = u.path()
            guard !paths.contains(where: { PathBytes.same($0, to) }) else { continue }
            var before = LinkTargets(paths: paths)
            var after = before
            after.remove(from)
            after.add(to)
            let change = LinkTargets.Change(paths: [from, to])
            for _ in 0..<30 {
                let target = u.target(), notePath = u.path()
                let old = before.resolve(target, from: notePath)
                let new = after.resolve(target, from: notePath)
                let moved = old.map { PathBytes.same($0, from) ? to : $0 }
                if !change.mayConcern(target, from: notePath) {
                    #expect(new.map { Array($0.utf8) } == moved.map { Array($0.utf8) }, "\(target) from \(notePath), moving \(from) to \(to) among \(paths)")
                    checked += 1
                }
            }
            before = after
        }
        #expect(checked > 1000)
    }

    /// `mv` and `backlinks` build a table of only the files their lookups read (the keys of
    /// those lookups): it must answer those lookups as the whole table does, and any other one
    /// too (by the whole table, made then), after the same files were added and removed.
    @Test func aPartialTableAnswersEveryLookupAsTheWholeTableDoes() {
        var u = Universe(state: 7)
        var answeredAlone = 0
        func bytes(_ path: String?) -> [UInt8]? { path.map { Array($0.utf8) } }
        for _ in 0..<300 {
            var paths: [String] = []
            for _ in 0..<(4 + u.next(10)) { let p = u.path(); if !paths.contains(where: { PathBytes.same($0, p) }) { paths.append(p) } }
            let asked = (0..<(1 + u.next(5))).map { _ in (target: u.target(), from: u.path()) }
            var keys = Set(asked.flatMap { LinkTargets.lookupKeys($0.target, from: $0.from) })
            if u.next(2) == 0 { keys.formUnion(LinkTargets.keysReaching(paths[u.next(paths.count)])) }
            var whole = LinkTargets(paths: paths)
            var partial = LinkTargets(paths: paths, answering: keys)
            // Asked before a change and after it: the whole table a lookup made before a change
            // must not answer after it.
            for round in 0..<2 {
            if round == 1 {
                for _ in 0..<(1 + u.next(3)) {
                    if u.next(2) == 0 { let p = u.path(); whole.add(p); partial.add(p) } else { let p = paths[u.next(paths.count)]; whole.remove(p); partial.remove(p) }
                }
            }
            for (target, from) in asked + (0..<10).map({ _ in (target: u.target(), from: u.path()) }) {
                let context = "\(target) from \(from) among \(paths), keys \(keys.sorted())"
                #expect(bytes(partial.resolve(target, from: from)) == bytes(whole.resolve(target, from: from)), "\(context)")
                #expect(partial.candidates(target, from: from).map { Array($0.utf8) } == whole.candidates(target, from: from).map { Array($0.utf8) }, "\(context)")
                #expect(bytes(partial.exact(target)) == bytes(whole.exact(target)), "\(context)")
                for path in paths {
                    #expect(partial.reaches(target, from: from, file: path) == whole.reaches(target, from: from, file: path), "\(path): \(context)")
                }
            }
            for (target, from) in asked where partial.whole(unlessHolding: LinkTargets.lookupKeys(target, from: from)) == nil {
                answeredAlone += 1
            }
            for path in paths + [u.path(), u.path()] { #expect(partial.contains(path) == whole.contains(path), "\(path) among \(paths)") }
            }
        }
        #expect(answeredAlone > 600, "the lookups a partial table is built for are answered from its own files")
    }

    /// A partial table skips a file whose ASCII name and stem hash to no key's hash without
    /// lower-casing them: the hashes must be those of `VaultPath`'s file name and stem, lower-cased.
    @Test func theHashesAPartialTableSkipsByAreThoseOfTheLowerCasedFileNameAndStem() {
        var u = Universe(state: 3)
        let paths = ["a", ".hidden", "A/.hidden.md", "a.", "a.b.c", "x/a.b.md", "x/.md", "noext", "d/e/f.markdown", "..a", "a..b", "Trips/PLAN.MD"]
            + (0..<50).map { _ in u.path() }
        for path in paths {
            let hashes = LinkTargets.Partial.asciiHashes(path)
            if path.utf8.allSatisfy({ $0 < 0x80 }) {
                #expect(hashes?.name == LinkTargets.Partial.asciiHashes(VaultPath.fileName(path).lowercased())?.name, "\(path)")
                #expect(hashes?.stem == LinkTargets.Partial.asciiHashes(VaultPath.stem(path).lowercased())?.name, "\(path)")
                #expect(hashes?.name != LinkTargets.Partial.asciiHashes(VaultPath.fileName(path) + "x")?.name, "\(path)")
            } else {
                #expect(hashes == nil, "\(path)")
            }
        }
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
