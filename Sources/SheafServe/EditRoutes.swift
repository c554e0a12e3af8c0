// The write routes, registered only without --read-only: a note's text in a plain textarea,
// saved with the `--if-match` rule (the form carries the blob id of the version it showed, so a
// note changed meanwhile on disk or by a sync is merged three ways instead of overwritten, and an
// overlap leaves a conflict file beside it; `VaultSession.writeNote`). Every form carries the
// server's form token (`csrf`), and a write without it is refused before anything is read.
import Foundation
import Hummingbird
import SheafCore
import SheafKit

extension VaultRoutes {
    /// A form's body is read up to a note's size limit, with room for the other fields.
    static let formLimit = Note.sizeLimit * 3 + 65_536

    func addWrites(to router: Router<BasicRequestContext>) {
        router.get("/edit/**") { request, _ in
            guard let path = WebPaths.vaultPath(request.uri.path, under: "/edit") else { throw HTTPError(.notFound) }
            return try await editForm(path)
        }
        router.post("/daily") { request, _ in
            _ = try await form(request)
            let daily = try await withSession { session throws(SheafError) in try session.dailyNote(for: Date()) }
            return Response(status: .seeOther, headers: [.location: WebPaths.url("/n", daily.path)])
        }
        router.post("/edit/**") { request, _ in
            guard let path = WebPaths.vaultPath(request.uri.path, under: "/edit") else { throw HTTPError(.notFound) }
            let fields = try await form(request)
            return try await save(path, fields)
        }
        addNoteForms(to: router)
    }

    /// The fields of a form's body, refused (403) when the form is not one of this server's pages.
    func form(_ request: Request) async throws -> [String: String] {
        let body = try await request.body.collect(upTo: Self.formLimit)
        let fields = WebPaths.fields(String(buffer: body))
        guard access.formIsOurs(fields) else {
            throw HTTPError(.forbidden, message: "This form did not come from a page of this server (its form token is missing or old): reload the page and try again.")
        }
        return fields
    }

    func editForm(_ path: String) async throws -> Response {
        let found = try await withSession { session throws(SheafError) -> (text: String, base: String)? in
            guard let note = try session.note(at: path) else { return nil }
            guard note.note.isEditable else {
                throw SheafError("Sheaf does not edit this note", path: path, cause: note.note.warnings.map(\.description).joined(separator: "; "))
            }
            let base = try session.blobID(of: note)
            guard let bytes = FileManager.default.contents(atPath: session.vault.absolute(path)) else { return nil }
            return (String(decoding: bytes, as: UTF8.self), base)
        }
        guard let found else { throw HTTPError(.notFound) }
        let crumbs = noteCrumbs(path)
        let content = Templates.render("edit", [
            "vault": vaultName, "crumbs": crumbs, "path": path, "action": WebPaths.url("/edit", path), "back": WebPaths.url("/n", path),
            "csrf": access.formToken, "base": found.base, "text": found.text,
        ])
        return page(title: "Edit " + VaultPath.fileName(path), content: content)
    }

    func save(_ path: String, _ fields: [String: String]) async throws -> Response {
        guard let text = fields["text"], let base = fields["base"], !base.isEmpty else {
            throw HTTPError(.badRequest, message: "The form lacks the note's text or the version it was made from.")
        }
        let report = try await withSession { session throws(SheafError) -> GuardedWriteReport? in
            guard let note = try session.note(at: path) else { return nil }
            return try session.writeNote(Self.lineEnds(of: text, like: session.vault.absolute(path)), to: note, ifMatch: base)
        }
        guard let report else { throw HTTPError(.notFound) }
        return Self.after(FormOutcome(report.outcome), at: path)
    }

    /// What a note's page says after a form, by the word in its address; nil for any other word.
    static func savedMessage(_ word: String?) -> String? {
        word.flatMap(FormOutcome.init(rawValue:))?.message
    }

    /// A textarea's text as the note's bytes: browsers send every line break as CRLF, so a note
    /// written with LF gets LF back (one written with CRLF keeps CRLF).
    static func lineEnds(of text: String, like file: String) -> [UInt8] {
        let lf = text.replacingOccurrences(of: "\r\n", with: "\n")
        let crlf = FileManager.default.contents(atPath: file).map { $0.firstRange(of: Data("\r\n".utf8)) != nil } ?? false
        return Array((crlf ? lf.replacingOccurrences(of: "\n", with: "\r\n") : lf).utf8)
    }
}
