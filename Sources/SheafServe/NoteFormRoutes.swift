// The small write forms, registered only without --read-only, each through the Kit call its
// command uses: a new note (`sheaf new`: a folder and a title make the file, named as the CLI
// names it), an append (`sheaf append`: the text goes at the end of the note as it is when
// written, so nothing written meanwhile is lost), and a note's front-matter tags (`sheaf tags
// add/remove`). The tags form carries the tags it showed; the save applies only what the reader
// changed against those to the note as it is now, so a tag added or removed meanwhile (an
// editor, a sync) stays as that change left it: the `--if-match` rule, on the tag set.
import Foundation
import Hummingbird
import SheafCore
import SheafKit

extension VaultRoutes {
    func addNoteForms(to router: Router<BasicRequestContext>) {
        router.get("/new") { request, _ in
            newNoteForm(folder: WebPaths.fields(request.uri.query)["folder"] ?? "")
        }
        router.post("/new") { request, _ in
            let fields = try await form(request)
            let title = fields["title"] ?? "", folder = fields["folder"] ?? "", body = fields["body"] ?? ""
            let tags = Self.tagList(fields["tags"] ?? "")
            let made = try await withSession { session throws(SheafError) in
                try session.createNote(title: title, folder: folder.isEmpty ? nil : folder, tags: tags,
                                       body: body.replacingOccurrences(of: "\r\n", with: "\n"))
            }
            return Self.after(.created, at: made.path)
        }
        router.post("/append/**") { request, _ in
            guard let path = WebPaths.vaultPath(request.uri.path, under: "/append") else { throw HTTPError(.notFound) }
            let text = try await form(request)["text"] ?? ""
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return Self.after(nil, at: path) }
            let found = try await withSession { session throws(SheafError) -> Bool in
                guard let note = try session.note(at: path) else { return false }
                try session.append(text, to: note)
                return true
            }
            guard found else { throw HTTPError(.notFound) }
            return Self.after(.appended, at: path)
        }
        router.post("/retag/**") { request, _ in
            guard let path = WebPaths.vaultPath(request.uri.path, under: "/retag") else { throw HTTPError(.notFound) }
            let fields = try await form(request)
            let shown = Self.tagList(fields["shown"] ?? ""), wanted = Self.tagList(fields["tags"] ?? "")
            let key = { (tag: String) in tag.lowercased() }
            let shownKeys = Set(shown.map(key)), wantedKeys = Set(wanted.map(key))
            let added = wanted.filter { !shownKeys.contains(key($0)) }, removed = shown.filter { !wantedKeys.contains(key($0)) }
            let found = try await withSession { session throws(SheafError) -> Bool in
                guard var note = try session.note(at: path) else { return false }
                if !added.isEmpty {
                    _ = try session.addTags(added, to: note)
                    guard let again = try session.note(at: path) else { return false }
                    note = again
                }
                if !removed.isEmpty { _ = try session.removeTags(removed, from: note) }
                return true
            }
            guard found else { throw HTTPError(.notFound) }
            return Self.after(.tagged, at: path)
        }
    }

    /// What a note's page needs for its forms (none when read-only): the append and tags forms.
    func noteForms(_ path: String, _ note: Note) -> [String: Any] {
        guard let formToken else { return [:] }
        return ["form": formToken, "append": WebPaths.url("/append", path), "retag": WebPaths.url("/retag", path),
                "shownTags": note.frontMatterTags.joined(separator: ", ")]
    }

    func newNoteForm(folder: String) -> Response {
        let content = Templates.render("new", ["csrf": access.formToken, "folder": folder])
        return page(title: "New note", content: content)
    }

    /// Tags as a person types them into one field: separated by commas or spaces, `#` optional.
    static func tagList(_ text: String) -> [String] {
        text.split { $0 == "," || $0.isWhitespace }.map { TagName.stripped(String($0)) }.filter { !$0.isEmpty }
    }

    /// After a POST, a GET of the note (reloading it does not write again); the word says what happened.
    static func after(_ done: FormOutcome?, at path: String) -> Response {
        Response(status: .seeOther, headers: [.location: WebPaths.url("/n", path) + (done.map { "?saved=" + $0.rawValue } ?? "")])
    }
}

/// What a form did, as the word in the note's address after it and the sentence its page shows.
enum FormOutcome: String {
    case clean, merged, conflict, created, appended, tagged

    init(_ outcome: GuardedWriteReport.Outcome) {
        switch outcome {
        case .clean: self = .clean
        case .merged: self = .merged
        case .conflict: self = .conflict
        }
    }

    var message: String {
        switch self {
        case .clean: "Saved."
        case .merged: "Saved, merged with a change made meanwhile."
        case .conflict: "Saved. It overlapped a change made meanwhile: the note keeps your text there, and a conflict file beside it holds the other."
        case .created: "Made this note."
        case .appended: "Appended."
        case .tagged: "Tags saved."
        }
    }
}
