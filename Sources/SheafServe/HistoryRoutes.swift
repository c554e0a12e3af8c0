// A note's history and its conflicts in the browser: the versions `sheaf log` lists, a version's
// text and its diff to the note today, restoring one (`sheaf restore`: what the note holds now is committed first, so it stays
// in history), the conflict files a sync left beside notes, and resolving them as `sheaf
// resolve` does (keep the note, the conflict file's version, or both). Reading needs no form
// token; every change is a POST with one, and none exists with --read-only.
import Foundation
import Hummingbird
import SheafCore
import SheafFiles
import SheafKit

extension VaultRoutes {
    func addHistory(to router: Router<BasicRequestContext>) {
        router.get("/history/**") { request, _ in
            guard let path = WebPaths.vaultPath(request.uri.path, under: "/history") else { throw HTTPError(.notFound) }
            return try await history(path)
        }
        router.get("/version/**") { request, _ in
            guard let path = WebPaths.vaultPath(request.uri.path, under: "/version"),
                  let rev = WebPaths.fields(request.uri.query)["rev"] else { throw HTTPError(.notFound) }
            return try await version(path, rev)
        }
        router.get("/conflicts") { _, _ in try await conflicts() }
        guard !readOnly else { return }
        router.post("/restore/**") { request, _ in
            guard let path = WebPaths.vaultPath(request.uri.path, under: "/restore") else { throw HTTPError(.notFound) }
            let fields = try await form(request)
            guard let rev = fields["rev"] else { throw HTTPError(.badRequest) }
            _ = try await withSession { session throws(SheafError) in try session.restore(path, at: rev) }
            return Response(status: .seeOther, headers: [.location: WebPaths.url("/n", path)])
        }
        router.post("/resolve") { request, _ in
            let fields = try await form(request)
            guard let note = fields["note"], VaultPathGuard.refusal(note) == nil,
                  let keep = fields["keep"].flatMap(ConflictKeep.init(rawValue:)) else { throw HTTPError(.badRequest) }
            let report = try await withSession { session throws(SheafError) in try session.resolve(note, keep: keep) }
            return Response(status: .seeOther, headers: [.location: WebPaths.url("/n", report.original)])
        }
    }

    func history(_ path: String) async throws -> Response {
        let history = try await withSession { session throws(SheafError) in try session.history(of: path, limit: 100) }
        guard history.exists || !history.entries.isEmpty else { throw HTTPError(.notFound) }
        let entries = history.entries.map { entry -> [String: Any] in
            ["url": WebPaths.url("/version", entry.path ?? path) + "?rev=" + entry.commit.id,
             "diff": WebPaths.url("/version", entry.path ?? path) + "?rev=" + entry.commit.id + "#diff",
             "time": Self.minute(entry.commit.time), "author": entry.commit.authorName,
             "summary": entry.commit.summary, "kind": entry.kind.map { "\($0)" } ?? ""]
        }
        let content = Templates.render("history", ["vault": vaultName, "crumbs": noteCrumbs(path), "name": VaultPath.fileName(path), "entries": entries])
        return page(title: "History of " + VaultPath.fileName(path), content: content)
    }

    /// A version's text, and its diff to the note today (against nothing when the note is gone).
    func version(_ path: String, _ rev: String) async throws -> Response {
        let (version, today) = try await withSession { session throws(SheafError) in
            let version = try session.version(of: path, at: rev)
            let today = try session.note(at: path).flatMap { _ in FileManager.default.contents(atPath: session.vault.absolute(path)) }
            return (version, today.map { [UInt8]($0) })
        }
        let diff = TextDiff.lines(from: version.bytes, to: today ?? [])
        var values: [String: Any] = [
            "vault": vaultName, "crumbs": noteCrumbs(path), "name": VaultPath.fileName(path), "commit": version.commit,
            "text": String(decoding: version.bytes, as: UTF8.self), "restore": WebPaths.url("/restore", path),
            "diff": DiffLines.shown(diff), "same": !diff.contains { $0.kind != .kept }, "gone": today == nil,
        ]
        values["form"] = formToken
        let content = Templates.render("version", values)
        return page(title: VaultPath.fileName(path) + " at " + String(version.commit.prefix(7)), content: content)
    }

    func conflicts() async throws -> Response {
        let entries = try await withSession { session throws(SheafError) in try session.conflicts() }
        let content = Templates.render("conflicts", [
            "conflicts": entries.map { entry -> [String: Any] in
                var values: [String: Any] = ["original": entry.original, "noteURL": WebPaths.url("/n", entry.original),
                                             "file": VaultPath.fileName(entry.path), "fileURL": WebPaths.url("/n", entry.path)]
                values["form"] = formToken
                return values
            },
        ])
        return page(title: "Conflicts", content: content)
    }

    /// The folders above a note and the note, each a link.
    func noteCrumbs(_ path: String) -> [[String: Any]] {
        crumbs(VaultPath.folder(path)) + [["name": VaultPath.fileName(path), "url": WebPaths.url("/n", path)]]
    }

    static func minute(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return f.string(from: date)
    }
}
