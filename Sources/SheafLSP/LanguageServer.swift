// `sheaf lsp`: a Language Server Protocol server over standard input and output for one vault.
// One serial queue does everything that touches the server's state (requests, notifications,
// the watcher's news), so no state is shared between threads. The vault's watcher runs in this
// process on a thread of its own (`VaultSession.watch`, without sync), keeping the shared index
// fresh; after each batch it applied the server takes a new `VaultLinkMap` and publishes the
// open notes' diagnostics again. When another `sheaf watch` already watches the vault, that one
// keeps the index fresh and the server asks it, as every read command does.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SheafCore
import SheafKit

public final class LanguageServer: @unchecked Sendable {
    let stream: MessageStream
    let queue = DispatchQueue(label: "sheaf.lsp")
    /// `--vault` or `SHEAF_VAULT`, else the client's workspace folder, else the working directory.
    let explicitVault: String?
    let workingDirectory: String
    var session: VaultSession?
    var vault: Vault? { session?.vault }
    var documents: [String: TextDocument] = [:]
    private var cachedMap: VaultLinkMap?
    private var mapTaken = Date.distantPast
    /// Whether this process's watcher runs (else the map is taken again when it may be old).
    var watching = false
    /// Whether this process's watcher thread was started (it signals `watcherDone` as it ends).
    private var watcherStarted = false
    private let stopper = WatchStopper()
    private let watcherDone = DispatchSemaphore(value: 0)
    private var shutdownAsked = false
    private let finished = DispatchSemaphore(value: 0)
    private var exitCode: Int32 = 0

    public init(explicitVault: String?, workingDirectory: String = FileManager.default.currentDirectoryPath,
                input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.explicitVault = explicitVault
        self.workingDirectory = workingDirectory
        stream = MessageStream(input: input, output: output)
    }

    /// Serves until the client says `exit` (or closes the stream); the process's exit code.
    public func run() -> Int32 {
        WorkerThread.start(name: "sheaf-lsp-read") { [self] in
            while true {
                switch stream.next() {
                case .message(let body): queue.async { self.receive(body) }
                case .unreadable(let why): queue.async { self.replyError(id: NSNull(), code: -32700, why) }
                case .end:
                    queue.async { self.finish(self.shutdownAsked ? 0 : 1) }
                    return
                }
            }
        }
        finished.wait()
        return exitCode
    }

    private func finish(_ code: Int32) {
        exitCode = code
        if watcherStarted {
            stopper.stop()
            _ = watcherDone.wait(timeout: .now() + 5)
        }
        finished.signal()
    }

    // MARK: - Messages

    private func receive(_ body: Data) {
        guard let message = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            replyError(id: NSNull(), code: -32700, "the message is not a JSON object")
            return
        }
        let method = message["method"] as? String
        let params = message["params"] as? [String: Any] ?? [:]
        // Ids are numbers or strings; kept as Swift's own, so the reply writes them back as they came.
        guard let given = message["id"], !(given is NSNull) else {
            if let method { notify(method, params) }
            return  // a response to something the server asked: nothing waits for it
        }
        guard let method else { return }
        let id: Any
        if let text = given as? String { id = text } else if let number = given as? Int { id = number } else { id = NSNull() }
        if shutdownAsked && method != "shutdown" {
            replyError(id: id, code: -32600, "the server is shutting down")
            return
        }
        if method == "textDocument/rename" {
            switch rename(params) {
            case .success(let result): reply(id: id, result: result)
            case .failure(let error): replyError(id: id, code: error.code, error.message)
            }
        } else if let result = respond(method, params) {
            reply(id: id, result: result)
        } else {
            replyError(id: id, code: -32601, "\(method) is not supported")
        }
    }

    /// The result of a request (NSNull for none), nil when the method is not one the server has.
    private func respond(_ method: String, _ params: [String: Any]) -> Any? {
        switch method {
        case "initialize": return initialize(params)
        case "shutdown":
            shutdownAsked = true
            return NSNull()
        case "textDocument/completion": return completion(params)
        case "textDocument/definition": return definition(params)
        case "textDocument/references": return references(params)
        case "textDocument/hover": return hover(params)
        case "textDocument/documentLink": return documentLinks(params)
        case "textDocument/documentSymbol": return documentSymbols(params)
        case "workspace/symbol": return workspaceSymbols(params)
        case "textDocument/codeAction": return codeActions(params)
        default: return nil
        }
    }

    private func notify(_ method: String, _ params: [String: Any]) {
        switch method {
        case "initialized": startWatcher()
        case "exit": finish(shutdownAsked ? 0 : 1)
        case "textDocument/didOpen":
            guard let item = params["textDocument"] as? [String: Any], let uri = item["uri"] as? String,
                  let text = item["text"] as? String else { return }
            let document = TextDocument(uri: uri, path: vaultPath(uri), version: item["version"] as? Int ?? 0, text: text)
            documents[uri] = document
            if !watching { cachedMap = nil }
            publishDiagnostics(document)
        case "textDocument/didChange":
            guard let item = params["textDocument"] as? [String: Any], let uri = item["uri"] as? String,
                  var document = documents[uri], let changes = params["contentChanges"] as? [[String: Any]] else { return }
            // Full sync: the last change holds the whole text.
            guard let text = changes.last?["text"] as? String else { return }
            document.replace(text)
            document.version = item["version"] as? Int ?? document.version
            documents[uri] = document
            publishDiagnostics(document)
        case "textDocument/didSave":
            guard let item = params["textDocument"] as? [String: Any], let uri = item["uri"] as? String,
                  let document = documents[uri] else { return }
            if !watching { cachedMap = nil }
            publishDiagnostics(document)
        case "textDocument/didClose":
            guard let item = params["textDocument"] as? [String: Any], let uri = item["uri"] as? String,
                  let document = documents.removeValue(forKey: uri) else { return }
            if document.path != nil { send(method: "textDocument/publishDiagnostics", params: ["uri": uri, "diagnostics": [Any]()]) }
        default: break  // $/cancelRequest, $/setTrace, workspace/didChangeConfiguration ...
        }
    }

    func reply(id: Any, result: Any) {
        stream.send(["jsonrpc": "2.0", "id": id, "result": result])
    }

    func replyError(id: Any, code: Int, _ message: String) {
        stream.send(["jsonrpc": "2.0", "id": id, "error": ["code": code, "message": message.inert]])
    }

    func send(method: String, params: [String: Any]) {
        stream.send(["jsonrpc": "2.0", "method": method, "params": params])
    }

    // MARK: - The vault

    private func initialize(_ params: [String: Any]) -> Any {
        var folders: [String] = []
        if let explicitVault { folders.append(explicitVault) }
        if let workspaces = params["workspaceFolders"] as? [[String: Any]] {
            folders += workspaces.compactMap { ($0["uri"] as? String).flatMap(DocumentURI.path) }
        }
        if let root = (params["rootUri"] as? String).flatMap(DocumentURI.path) { folders.append(root) }
        if let root = params["rootPath"] as? String { folders.append(root) }
        folders.append(workingDirectory)
        for folder in folders {
            if let opened = try? VaultSession.open(explicit: explicitVault, workingDirectory: folder) {
                session = opened
                break
            }
        }
        return [
            "capabilities": [
                "textDocumentSync": ["openClose": true, "change": 1, "save": ["includeText": false]],
                "completionProvider": ["triggerCharacters": ["[", "#", "^"], "resolveProvider": false],
                "definitionProvider": true,
                "referencesProvider": true,
                "hoverProvider": true,
                "documentLinkProvider": ["resolveProvider": false],
                "documentSymbolProvider": true,
                "workspaceSymbolProvider": true,
                "renameProvider": true,
                "codeActionProvider": ["codeActionKinds": ["quickfix"]],
            ] as [String: Any],
            "serverInfo": ["name": "sheaf"],
        ]
    }

    /// Runs the vault's watcher on its own thread (no sync: the editor's session only reads).
    private func startWatcher() {
        guard let vault, !watcherStarted else { return }
        let stopper = self.stopper, done = watcherDone
        watching = true
        watcherStarted = true
        WorkerThread.start(name: "sheaf-lsp-watch") { [self] in
            let session = VaultSession(vault: vault, workingDirectory: vault.root)
            var options = VaultWatchOptions()
            options.sync = false
            session.subscribe { event in
                if case .problem(let error) = event { FileHandle.standardError.write(Data("sheaf lsp: \(error.what.inert)\n".utf8)) }
            }
            do {
                try session.watch(options: options, stopper: stopper) { _ in
                    self.queue.async { self.indexChanged() }
                }
            } catch {
                // Another `sheaf watch` keeps the index fresh (or the vault cannot be watched):
                // the map is taken again whenever it may be old.
                FileHandle.standardError.write(Data("sheaf lsp: \(((error as? SheafError)?.what ?? "\(error)").inert); answering from the index as read commands do\n".utf8))
                self.queue.async { self.watching = false; self.cachedMap = nil }
            }
            done.signal()
        }
    }

    /// The watcher applied a batch: answers from now on come from a new snapshot.
    private func indexChanged() {
        cachedMap = nil
        for document in documents.values { publishDiagnostics(document) }
    }

    /// The vault's links and names as the index holds them; without a watcher of this process,
    /// taken again when over a second old.
    func linkMap() -> VaultLinkMap? {
        if let cachedMap, watching || mapTaken.timeIntervalSinceNow > -1 { return cachedMap }
        guard let session else { return nil }
        cachedMap = try? session.linkMap()
        mapTaken = Date()
        return cachedMap
    }

    /// The vault path of the file a URI names; nil outside the vault or for no file.
    func vaultPath(_ uri: String) -> String? {
        guard let vault, let absolute = DocumentURI.path(uri), let relative = vault.relative(absolute), !relative.isEmpty,
              !relative.hasPrefix(".sheaf/"), !relative.hasPrefix(".git/") else { return nil }
        return relative
    }

    func uri(ofVaultPath path: String) -> String? { vault.map { DocumentURI.uri($0.absolute(path)) } }

    /// The parse of an open note's text, made once per text.
    func outline(_ document: TextDocument) -> NoteOutline? {
        guard let path = document.path else { return nil }
        if let outline = documents[document.uri]?.outline { return outline }
        let outline = NoteOutline(text: document.text, path: path)
        documents[document.uri]?.outline = outline
        return outline
    }

    /// The open document a request names, when it is a note of the vault.
    func document(_ params: [String: Any]) -> (TextDocument, String)? {
        guard let item = params["textDocument"] as? [String: Any], let uri = item["uri"] as? String,
              let document = documents[uri], let path = document.path else { return nil }
        return (document, path)
    }
}
