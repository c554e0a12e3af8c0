// The read routes: folders, notes, files and thumbnails, tags, search. Each request opens its own
// VaultSession (Kit's unit of work: a freshness scan, or a running watcher's word that the index
// is fresh) on a thread of Dispatch's pool, since a session blocks on the disk and the index;
// every session shares the server's index connections and the paths derived from them
// (`SharedIndex`, made again when the index changes).
// A path in a URL names nothing by itself: the page looks it up among the paths the index holds
// (so nothing outside the vault's notes and attachments, no `.git`, no `.sheaf`, no folder the
// index leaves out can be listed or read), and a file is read only after the vault's path guard
// accepted it and no symlink on the way leads out of the vault.
import Dispatch
import Foundation
import Hummingbird
import SheafCore
import SheafFiles
import SheafKit

struct VaultRoutes: Sendable {
    let vault: Vault
    let access: AccessGuard
    /// `--read-only`: no write route exists, and no page offers one.
    let readOnly: Bool
    /// The bar's word on shares (none without shares).
    let shares: ShareLine
    /// The index every request's session reads through.
    let index: SharedIndex
    var vaultName: String { VaultPath.fileName(vault.root) }

    func add(to router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in try await folder("") }
        let pages: [(String, @Sendable (String, Request) async throws -> Response)] = [
            ("/f", { path, _ in try await folder(path) }),
            ("/n", { path, request in try await note(path, saved: Self.savedMessage(WebPaths.fields(request.uri.query)["saved"])) }),
            ("/file", { path, _ in try await file(path) }),
            ("/thumb", { path, _ in try await thumbnail(path) }),
        ]
        for (prefix, page) in pages {
            router.get(RouterPath(prefix + "/**")) { request, _ in
                guard let path = WebPaths.vaultPath(request.uri.path, under: prefix) else { throw HTTPError(.notFound) }
                return try await page(path, request)
            }
        }
        router.get("/search") { request, _ in
            let fields = WebPaths.fields(request.uri.query)
            return try await search(fields["q"] ?? "", fragment: fields["fragment"] == "1")
        }
        router.get("/tags") { _, _ in try await tags() }
        router.get("/tag/**") { request, _ in
            guard let tag = WebPaths.decoded(request.uri.path, under: "/tag"), !tag.isEmpty else { throw HTTPError(.notFound) }
            return try await tagPage(tag)
        }
        router.get("/assets/sheaf.css") { _, _ in asset(Assets.css, type: "text/css; charset=utf-8") }
        router.get("/assets/sheaf.js") { _, _ in asset(Assets.js, type: "text/javascript; charset=utf-8") }
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }  // (a browser asks for it)
        addHistory(to: router)
        if !readOnly { addWrites(to: router) }
    }

    /// A page of the layout; its bar has the Today button (a form, so it needs the form token)
    /// unless the server is read-only.
    func page(_ status: HTTPResponse.Status = .ok, title: String, query: String = "", content: String) -> Response {
        Page.layout(status, title: title, vault: vaultName, query: query, form: formToken, shares: shares.text(vault), content: content)
    }

    /// What a page's forms carry; nil when the server is read-only (it has no form).
    var formToken: String? { readOnly ? nil : access.formToken }

    /// Runs `body` with a new session on a Dispatch thread; a Kit error becomes an error page.
    func withSession<T: Sendable>(_ body: @escaping @Sendable (VaultSession) throws(SheafError) -> T) async throws -> T {
        let (vault, index) = (self.vault, self.index)
        let result: Result<T, SheafError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let session = VaultSession(vault: vault, workingDirectory: vault.root, sharing: index)
                continuation.resume(returning: Result { () throws(SheafError) in try body(session) })
            }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error): throw HTTPError(Self.status(of: error), message: error.summary)
        }
    }

    /// What an error of the vault's is as an answer: a name no note answers to is not found, a
    /// save against files still being written is a conflict, an unreachable remote or an index
    /// that cannot be written is the server's trouble for now, and anything else is the request's
    /// (a form's empty title, a note already there, a path the guard refuses), said as Kit says it.
    static func status(of error: SheafError) -> HTTPResponse.Status {
        switch error.kind {
        case .noNoteMatches: .notFound
        case .unsettled: .conflict
        case .offline, .indexNotWritable: .serviceUnavailable
        case .failure: .badRequest
        }
    }

    // MARK: folders

    func folder(_ path: String) async throws -> Response {
        let listing = try await withSession { session throws(SheafError) in
            (try session.indexedPaths(), try session.list(folder: path.isEmpty ? nil : path, tag: nil, sort: .title, limit: nil))
        }
        let prefix = path.isEmpty ? "" : path + "/"
        var folders: [PathKey: Int] = [:]  // by bytes: folders named in NFC and in NFD are two
        var files: [String] = []
        for p in listing.0.all where p.hasBytePrefix(prefix) {
            let parts = String(decoding: p.utf8.dropFirst(prefix.utf8.count), as: UTF8.self).pathParts(omittingEmpty: false, maxSplits: 1)
            if parts.count == 2 {
                folders[PathKey(String(parts[0])), default: 0] += VaultPath.isNote(p) ? 1 : 0
            } else if !VaultPath.isNote(p) {
                files.append(p)
            }
        }
        guard path.isEmpty || !folders.isEmpty || !files.isEmpty || !listing.1.isEmpty else { throw HTTPError(.notFound) }
        let notes = listing.1.filter { PathBytes.same(VaultPath.folder($0.path), path) }
        let content = Templates.render("folder", [
            "new": readOnly ? false as Any : "/new?folder=" + WebPaths.encode(path),
            "vault": vaultName, "crumbs": crumbs(path), "name": path.isEmpty ? vaultName : VaultPath.fileName(path),
            "hasFolders": !folders.isEmpty,
            "folders": folders.keys.sorted { a, b in
                a.path.lowercased() == b.path.lowercased() ? PathBytes.sortsBefore(a.path, b.path) : a.path.lowercased() < b.path.lowercased()
            }.map { key in
                ["name": key.path, "url": WebPaths.url("/f", prefix + key.path), "count": "\(folders[key]!)"] as [String: Any]
            },
            "notes": notes.map(noteItem),
            "hasFiles": !files.isEmpty,
            "files": files.sorted(by: PathBytes.sortsBefore).map { ["name": VaultPath.fileName($0), "url": WebPaths.url("/file", $0)] },
        ])
        return page(title: path.isEmpty ? vaultName : path, content: content)
    }

    func noteItem(_ note: NoteSummary) -> [String: Any] {
        var item: [String: Any] = ["title": note.title, "url": WebPaths.url("/n", note.path), "date": Self.day(note.modified)]
        item["snippet"] = note.snippet.isEmpty ? nil : note.snippet
        return item
    }

    /// The folders above `path` (and it), each a link to its listing.
    func crumbs(_ path: String) -> [[String: Any]] {
        var out: [[String: Any]] = []
        var folder = ""
        for part in path.pathParts() {
            folder = VaultPath.join(folder, String(part))
            out.append(["name": String(part), "url": WebPaths.url("/f", folder)])
        }
        return out
    }

    static func day(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd"
        return f.string(from: date)
    }

    // MARK: notes

    /// The property link a value shows: the first resolved link of its key that the value's own
    /// wiki-link names.
    static func propertyLink(in text: String, resolved: [String: String]) -> (target: String, resolved: String?)? {
        for target in Note.wikiLinkTargets(in: text) {
            if let reached = resolved[target] { return (target, reached) }
        }
        return nil
    }

    /// The note's page; `saved` says how a save just ended.
    func note(_ path: String, saved: String?) async throws -> Response {
        guard let page = try await withSession({ session throws(SheafError) in try session.notePage(at: path) }) else {
            throw HTTPError(.notFound)
        }
        let note = page.note.note
        let crumbs = noteCrumbs(path)
        // The resolved property links by key, then by target: a search of all of them for each
        // value made a page of thousands quadratic (regression).
        var resolvedByKey: [String: [String: String]] = [:]
        for link in page.propertyLinks {
            guard let resolved = link.resolved else { continue }
            if resolvedByKey[link.key]?[link.target] == nil { resolvedByKey[link.key, default: [:]][link.target] = resolved }
        }
        let properties = note.frontMatter.entries.filter { $0.key != "tags" }.map { entry -> [String: Any] in
            let values = entry.value.flattenedText.map { text -> [String: Any] in
                let link = Self.propertyLink(in: text, resolved: resolvedByKey[entry.key] ?? [:])
                let url = link?.resolved.map { VaultPath.isNote($0) ? WebPaths.url("/n", $0) : WebPaths.url("/file", $0) }
                return url.map { ["text": text, "url": $0] } ?? ["text": text]
            }
            return ["key": entry.key, "values": values]
        }
        var values: [String: Any] = [
            "vault": vaultName, "path": path, "crumbs": crumbs,
            "history": WebPaths.url("/history", path),
            "hasProperties": !properties.isEmpty, "properties": properties,
            "hasTags": !note.tags.isEmpty,
            "tags": note.tags.map { ["name": $0, "url": WebPaths.url("/tag", $0)] },
            "html": NoteHTML.body(of: page),
            "backlinks": page.backlinks.map { b -> [String: Any] in
                ["title": b.title, "url": WebPaths.url("/n", b.path), "lines": b.lines]
            },
        ]
        // (Absent, not empty, when there is none: Mustache takes an empty string as true.)
        values["edit"] = readOnly ? nil : WebPaths.url("/edit", path)
        values["saved"] = saved
        values.merge(noteForms(path, note), uniquingKeysWith: { $1 })
        let content = Templates.render("note", values)
        return self.page(title: note.title, content: content)
    }

    // MARK: files

    /// The types a browser shows inline without running anything; every other file is a download.
    static let inlineTypes: Set<String> = ["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif", "text/plain", "text/csv"]
    /// A file's own page may run nothing and load nothing but images of this server.
    static let filePolicy = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox"

    func file(_ path: String) async throws -> Response {
        let bytes = try await withSession { session throws(SheafError) in try readable(path, session).flatMap { FileManager.default.contents(atPath: $0) } }
        guard let bytes else { throw HTTPError(.notFound) }
        let type = VaultPath.isNote(path) ? "text/plain" : MediaType.of(path)
        var headers: HTTPFields = [.contentSecurityPolicy: Self.filePolicy]
        if Self.inlineTypes.contains(type) {
            headers[.contentType] = type.hasPrefix("text/") ? type + "; charset=utf-8" : type
        } else {
            headers[.contentType] = "application/octet-stream"
            headers[.contentDisposition] = "attachment; filename*=UTF-8''" + WebPaths.encode(VaultPath.fileName(path))
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The absolute file of `path` when it may be read: a path the index holds, accepted by the
    /// path guard, a regular file (through a symlink only to a place inside the vault the walk
    /// would read).
    func readable(_ path: String, _ session: VaultSession) throws(SheafError) -> String? {
        guard !path.isEmpty, try session.indexedPaths().contains(path),
              case .success = VaultPathGuard.check(path, in: vault.root) else { return nil }
        let absolute = vault.absolute(path)
        var info = stat()
        guard lstat(absolute, &info) == 0 else { return nil }
        if info.st_mode & S_IFMT == S_IFLNK {
            guard let real = realpath(absolute, nil), let root = realpath(vault.root, nil) else { return nil }
            defer { free(real); free(root) }
            guard VaultPathGuard.isReadableTarget(String(cString: real), realRoot: String(cString: root)),
                  stat(absolute, &info) == 0 else { return nil }
        }
        return info.st_mode & S_IFMT == S_IFREG ? absolute : nil
    }

    func thumbnail(_ path: String) async throws -> Response {
        let thumb = try await withSession { session throws(SheafError) in try session.thumbnailFile(ofAttachment: path) }
        if let thumb, let bytes = FileManager.default.contents(atPath: thumb) {
            return Response(status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "private, max-age=60"],
                            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        // Not made yet (the watcher makes it soon): an image a browser shows safely is shown as it is.
        guard Self.inlineTypes.contains(MediaType.of(path)), MediaType.of(path).hasPrefix("image/") else { throw HTTPError(.notFound) }
        return try await file(path)
    }

    // MARK: search and tags

    /// Hits on the search page, and under the box as one types (each hit's snippet is cut from
    /// its file, so a list no one scrolls while typing costs as much as the query).
    static let searchLimit = 50, asYouTypeLimit = 10

    func search(_ query: String, fragment: Bool) async throws -> Response {
        var values: [String: Any] = [:]
        if !query.trimmingHorizontalWhitespace.isEmpty {
            var typo: SearchQueryError?
            do { _ = try SearchQuery.parse(query) } catch { typo = error }  // the CLI's language, its parser's words
            if let typo {
                values["error"] = "cannot read the query: " + typo.description
            } else {
                let answer = try await withSession { session throws(SheafError) in try session.search(query, limit: fragment ? Self.asYouTypeLimit : Self.searchLimit, snippets: true) }
                values["relaxed"] = answer.relaxed
                values["empty"] = answer.hits.isEmpty
                values["hits"] = answer.hits.map { hit -> [String: Any] in
                    ["title": hit.title, "path": hit.path, "url": WebPaths.url("/n", hit.path),
                     "snippet": hit.snippet.map { ["text": $0.text, "match": $0.match] as [String: Any] }]
                }
            }
        }
        if fragment { return Page.html(Templates.render("results", values)) }
        values["vault"] = vaultName
        return page(title: query.isEmpty ? "Search" : query, query: query, content: Templates.render("search", values))
    }

    func tags() async throws -> Response {
        let counts = try await withSession { session throws(SheafError) in try session.tagCounts() }
        let content = Templates.render("tags", ["tags": counts.map { ["name": $0.tag, "count": "\($0.count)", "url": WebPaths.url("/tag", $0.tag)] }])
        return page(title: "Tags", content: content)
    }

    func tagPage(_ tag: String) async throws -> Response {
        let notes = try await withSession { session throws(SheafError) in try session.list(folder: nil, tag: tag, sort: .modified, limit: nil) }
        guard !notes.isEmpty else { throw HTTPError(.notFound) }
        return page(title: "#" + tag, content: Templates.render("tag", ["name": tag, "notes": notes.map(noteItem)]))
    }

    func asset(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
