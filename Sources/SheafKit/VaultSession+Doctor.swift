// `sheaf doctor`: the vault's health in one report. Links that reach nothing, `#heading` and
// `#^block` references to what a note does not hold, orphans, names that clash on a case-blind
// file system or cannot exist on Windows or Android, conflict markers committed in notes, files git
// tracks although .gitignore now ignores them, temporary files a killed write left (they may
// hold a save), and the index's own integrity. It only reads:
// every finding says how to fix it, and nothing here deletes or rewrites a note.
import Foundation
import SheafCore
import SheafFiles
import SheafGit
import SheafIndex

/// One thing `doctor` found.
public struct DoctorFinding: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case brokenLink = "broken-link"
        case brokenHeading = "broken-heading"
        case brokenBlock = "broken-block"
        case orphanNote = "orphan-note"
        case orphanAttachment = "orphan-attachment"
        case caseClash = "case-clash"
        case unportableName = "unportable-name"
        case conflictMarkers = "conflict-markers"
        case trackedButIgnored = "tracked-but-ignored"
        case index = "index"
        case interruptedWrite = "interrupted-write"
        case gitIndex = "git-index"
    }
    public let kind: Kind
    public let path: String
    /// 1-based line in the file, when the finding has one.
    public let line: Int?
    public let message: String
    /// How to fix it.
    public let fix: String
    /// The commit that brought it, for committed conflict markers.
    public let commit: String?
    /// Set by `doctor(fix: true)` for what it repaired.
    public var fixed = false
}

extension VaultSession {
    /// Every finding, sorted by path, then line, then kind. With `fix`, repairs what is safe and
    /// marks it `fixed`: a damaged index is rebuilt from the files, and a damaged `.git/index`
    /// from the last commit (Repository+IndexRepair). Files git tracks that .gitignore ignores
    /// stay tracked: the rule may have come with a sync, and their removal, once committed, would
    /// delete them from every other device. Only those `untrack` names (a file, or a folder for
    /// the files below it) leave git's index (the files stay here, the removal is staged for the
    /// next commit); a name that is no such file is an error, and nothing is changed.
    /// Nothing else is touched; no note is ever deleted or edited.
    public func doctor(fix: Bool, untrack named: [String] = []) throws(SheafError) -> [DoctorFinding] {
        var findings = try doctor()
        let untrack = try Self.named(named, among: findings.filter { $0.kind == .trackedButIgnored }.map(\.path))
        if fix, findings.contains(where: { $0.kind == .gitIndex }), let repo = try repository() {
            try withWriterLock { (_) throws(SheafError) in
                do throws(GitError) { if Self.gitIndexIsDamaged(repo) { _ = try repo.rebuildDamagedIndex() } }
                catch { throw SheafError("cannot rebuild git's index", path: repo.gitDirectory + "/index", cause: error.description) }
            }
            for i in findings.indices where findings[i].kind == .gitIndex { findings[i].fixed = true }
        }
        if !untrack.isEmpty, let repo = try repository() {
            try withWriterLock { (_) throws(SheafError) in
                do throws(GitError) { try repo.untrack(untrack) }
                catch { throw SheafError("cannot update git's index", path: vault.root, cause: error.description) }
            }
            for i in findings.indices where findings[i].kind == .trackedButIgnored
                && untrack.contains(where: { $0.isIdentical(to: findings[i].path) }) { findings[i].fixed = true }
        }
        if fix, findings.contains(where: { $0.kind == .index }) {
            _ = try freshIndex(rebuild: true)
            for i in findings.indices where findings[i].kind == .index { findings[i].fixed = true }
        }
        return findings
    }

    /// The tracked-but-ignored paths the user named (relative to the vault): each name is one
    /// of them, or a folder holding some (`./` and a trailing `/` allowed). A name that is
    /// neither is refused.
    static func named(_ names: [String], among ignored: [String]) throws(SheafError) -> [String] {
        var chosen: [String] = []
        for name in names {
            let path = VaultPath.normalize(name) ?? ""
            let matches = ignored.filter { $0.isIdentical(to: path) || $0.utf8.starts(with: (path + "/").utf8) }
            guard !path.isEmpty, !matches.isEmpty else {
                throw SheafError("not a file git tracks although .gitignore ignores it", path: name,
                                 hint: "`sheaf doctor` lists them (tracked-but-ignored)")
            }
            chosen += matches.filter { path in !chosen.contains { $0.isIdentical(to: path) } }
        }
        return chosen
    }

    /// Every finding, sorted by path, then line, then kind.
    public func doctor() throws(SheafError) -> [DoctorFinding] {
        let (index, _) = try freshIndex()
        let catalog = try catalog()
        let targets = catalog.linkTargets
        var findings: [DoctorFinding] = []
        // Keyed by bytes: `café.md` in NFC and in NFD are two files, each with its own links.
        var linked = Set<PathKey>()  // files some other note links to
        var linksOut = Set<PathKey>()  // notes that link to some other file
        var markers: [(path: String, line: Int)] = []
        let notesByPath = Dictionary(catalog.notes.map { (PathKey($0.path), $0.note) }, uniquingKeysWith: { a, _ in a })
        var anchors: [PathKey: LinkProblem.Anchors?] = [:]  // a linked note's headings, once

        for entry in catalog.notes {
            let note = entry.note
            let lines = LineLocator(text: CLIText.read(vault.absolute(entry.path)) ?? "", note: note)
            // Links in `%% comments %%` are shown nowhere in Obsidian: not checked.
            for link in note.links where !link.inComment {
                linksOut.insert(PathKey(entry.path))  // a note with a broken link does not "link to none"
                let (resolved, problem) = LinkProblem.check(link, from: entry.path, targets: targets, ambiguity: false) { path in
                    if let known = anchors[PathKey(path)] { return known }
                    let made = notesByPath[PathKey(path)].map { LinkProblem.Anchors(headings: $0.headings, blockIDs: $0.blockIDs) }
                    anchors[PathKey(path)] = made
                    return made
                }
                if let resolved, !PathBytes.same(resolved, entry.path) { linked.insert(PathKey(resolved)) }
                // (the kinds doctor reports share their names with its own)
                if let problem, let kind = DoctorFinding.Kind(rawValue: problem.kind.rawValue) {
                    findings.append(DoctorFinding(kind: kind, path: entry.path, line: lines.line(of: link),
                                                  message: problem.message, fix: problem.fix, commit: nil))
                }
            }
            if let i = lines.textLines.firstIndex(where: Self.isConflictMarker) { markers.append((entry.path, i + 1)) }
        }

        for entry in catalog.notes where !linked.contains(PathKey(entry.path)) && !linksOut.contains(PathKey(entry.path)) && !ConflictName.isConflict(entry.path) {
            findings.append(DoctorFinding(kind: .orphanNote, path: entry.path, line: nil,
                                          message: "no note links to it and it links to none",
                                          fix: "link it from a note that belongs with it (harmless if it stands alone)", commit: nil))
        }
        for attachment in try attachments(orphansOnly: true) {
            findings.append(DoctorFinding(kind: .orphanAttachment, path: attachment.record.path, line: nil,
                                          message: "no note links to it",
                                          fix: "embed it where it belongs, or delete it if it is not needed", commit: nil))
        }
        findings += Self.nameFindings(catalog.files.map(\.path))
        // git's index is read by the findings below: when it is damaged, that is the finding.
        let gitIndexDamaged = try repository().map(Self.gitIndexIsDamaged) ?? false
        let (broughtBy, tracked) = gitIndexDamaged ? ([:], []) : try gitFindings(markers.map(\.path))
        for marker in markers {
            let commit = broughtBy[PathKey(marker.path)]
            findings.append(DoctorFinding(kind: .conflictMarkers, path: marker.path, line: marker.line,
                                          message: commit != nil ? "conflict markers are committed" : "conflict markers (not committed)",
                                          fix: "keep the right text, delete the marker lines (<<<<<<<, =======, >>>>>>>), and commit",
                                          commit: commit))
        }
        findings += tracked
        findings += interruptedWrites()
        if gitIndexDamaged {
            findings.append(DoctorFinding(kind: .gitIndex, path: ".git/index", line: nil,
                                          message: "git's index cannot be read (cut off or empty): every commit and sync stops on it",
                                          fix: "run `sheaf doctor --fix`, `sheaf commit` or `sheaf sync`: it is rebuilt from the last commit (the notes are not touched) and the damaged file kept beside it",
                                          commit: nil))
        }
        for problem in try index.integrityProblems() {
            findings.append(DoctorFinding(kind: .index, path: ".sheaf/index.sqlite", line: nil, message: problem,
                                          fix: "run `sheaf index --rebuild` (the index is rebuilt from the files)", commit: nil))
        }
        return findings.sorted { a, b in
            if a.path != b.path { return a.path.utf8.lexicographicallyPrecedes(b.path.utf8) }
            if (a.line ?? 0) != (b.line ?? 0) { return (a.line ?? 0) < (b.line ?? 0) }
            return a.kind.rawValue < b.kind.rawValue
        }
    }

    /// `<<<<<<< `, `=======` or `>>>>>>> ` at the start of a line, as git writes them.
    static func isConflictMarker(_ line: Substring) -> Bool {
        line.hasPrefix("<<<<<<< ") || line == "<<<<<<<" || line.hasPrefix(">>>>>>> ") || line == ">>>>>>>"
    }

    /// Temporary files kept from killed writes: the freshness scan moved them to
    /// `.sheaf/interrupted/` (they may hold a save made just then); and any orphan it could not
    /// move, still beside the files it was writing. Those of a Sheaf writing now are left out.
    func interruptedWrites() -> [DoctorFinding] {
        var findings = keptInterruptedWrites().map { kept in
            DoctorFinding(kind: .interruptedWrite, path: kept.path, line: nil,
                          message: "kept from a Sheaf command that was killed while it wrote a file in \(kept.foundIn.isEmpty ? "the vault's top folder" : kept.foundIn)",
                          fix: "compare it with the files there (it may hold a save made just then), keep what you need, then delete it",
                          commit: nil)
        }
        guard let walk = FileManager.default.enumerator(atPath: vault.root) else { return findings }
        while let entry = walk.nextObject() as? String {
            if entry == ".git" || entry == ".sheaf" { walk.skipDescendants(); continue }
            guard let maker = TemporaryName.maker(of: VaultPath.fileName(entry)),
                  TemporaryName.isOrphan(vault.absolute(entry), maker: maker) else { continue }
            let beside = VaultPath.folder(entry)
            findings.append(DoctorFinding(kind: .interruptedWrite, path: entry, line: nil,
                                          message: "left by a Sheaf command that was killed while it wrote a file\(beside.isEmpty ? "" : " in \(beside)")",
                                          fix: "compare it with the files beside it (it may hold a save made just then), keep what you need, then delete it",
                                          commit: nil))
        }
        return findings
    }

    /// Names two files share but for case, and names Windows or Android cannot hold.
    static func nameFindings(_ paths: [String]) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        var byKey: [String: [String]] = [:]
        for path in paths { byKey[path.lowercased(), default: []].append(path) }
        for (_, group) in byKey where group.count > 1 {
            for path in group {
                // By bytes: Swift's `!=` calls NFC and NFD spellings of one name equal, which left
                // no other name to show ("differs only by case from :").
                let others = group.filter { !PathBytes.same($0, path) }
                let form = others.allSatisfy { $0 == path }  // the same letters, composed otherwise
                let how = form ? "differs only in its Unicode form (NFC or NFD) from" : "differs only by case from"
                findings.append(DoctorFinding(kind: .caseClash, path: path, line: nil,
                                              message: "\(how) \(others.joined(separator: ", ")): one of them is lost on macOS and Windows",
                                              fix: "rename one of them with `sheaf mv`", commit: nil))
            }
        }
        for path in paths {
            for part in path.pathParts() {
                let bad = part.filter { ":*?\"<>|\\".contains($0) }
                let trailing = part.last == "." || part.last == " "
                guard !bad.isEmpty || trailing else { continue }
                let why = !bad.isEmpty ? "holds \(Set(bad).sorted().map { "\($0)" }.joined(separator: " "))" : "ends with a dot or a space"
                findings.append(DoctorFinding(kind: .unportableName, path: path, line: nil,
                                              message: "the name \"\(part)\" \(why), which Windows and Android cannot store",
                                              fix: "rename it with `sheaf mv` (or `git mv` for a folder)", commit: nil))
                break
            }
        }
        return findings
    }

    /// For the notes with conflict markers: the commit that brought the markers, when HEAD holds
    /// them. And the tracked files that .gitignore now ignores.
    private func gitFindings(_ markerPaths: [String]) throws(SheafError) -> ([PathKey: String], [DoctorFinding]) {
        guard let repo = try repository() else { return ([:], []) }
        var broughtBy: [PathKey: String] = [:]
        var findings: [DoctorFinding] = []
        do {
            guard let head = try repo.head() else { return ([:], []) }
            let listed = try repo.files(inCommit: head.id)
            let files = Dictionary(listed.map { (PathKey($0.path), $0.file) }) { first, _ in first }
            for path in markerPaths {
                guard let file = files[PathKey(path)], Self.hasConflictMarkers(try repo.blobBytes(file.blob)) else { continue }
                // The oldest commit of the unbroken run of versions with markers brought them.
                var brought = head.id
                for change in try repo.pathHistory(path, limit: 50) {
                    guard let f = change.file, Self.hasConflictMarkers(try repo.blobBytes(f.blob)) else { break }
                    brought = change.commit.id
                }
                broughtBy[PathKey(path)] = brought
            }
            // Still in git's index: one `--fix` untracked, pending its commit, is done.
            for path in listed.map(\.path).sorted(by: PathBytes.precedes) {
                guard try repo.isIgnored(path), try repo.isTracked(path) else { continue }
                findings.append(DoctorFinding(kind: .trackedButIgnored, path: path, line: nil,
                                              message: "git tracks it although .gitignore ignores it",
                                              fix: "it stays tracked; to stop tracking it, `sheaf doctor --untrack \(path)` then commit (it stays on disk here, but every device that syncs the removal deletes it); to keep it, un-ignore it in .gitignore", commit: nil))
            }
        } catch {
            throw SheafError("cannot read the vault's git history", path: vault.root, cause: error.description)
        }
        return (broughtBy, findings)
    }

    static func hasConflictMarkers(_ bytes: [UInt8]) -> Bool {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .contains { isConflictMarker($0.hasSuffix("\r") ? $0.dropLast() : $0) }
    }
}

/// Reads a note's file as text, nil when it cannot.
enum CLIText {
    static func read(_ absolutePath: String) -> String? {
        guard case .whole(let bytes)? = NoteBytes.read(absolutePath) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}

/// Line numbers of a note's links in its file (front-matter lines counted).
struct LineLocator {
    let textLines: [Substring]
    private let bodyOffsetLines: Int
    private let blockStarts: [Int]
    private let bodyStarts: [Int]

    init(text: String, note: Note) {
        textLines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        let document = NoteDocument(text: text)
        let block = document.frontMatter?.rendered ?? ""
        bodyOffsetLines = block.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        blockStarts = Self.starts(block)
        bodyStarts = Self.starts(document.body)
    }

    static func starts(_ text: String) -> [Int] {
        var starts = [0]
        for (i, c) in text.utf8.enumerated() where c == 0x0A { starts.append(i + 1) }
        return starts
    }

    /// The 1-based line of the file where `link`'s target starts.
    func line(of link: Link) -> Int {
        let starts = link.inFrontMatter ? blockStarts : bodyStarts
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= link.targetRange.lowerBound { lo = mid } else { hi = mid - 1 }
        }
        return lo + 1 + (link.inFrontMatter ? 0 : bodyOffsetLines)
    }
}
