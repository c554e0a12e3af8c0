// The pages' HTML as Mustache templates, compiled into the binary (an installed `sheaf` carries
// no resource folder). `{{name}}` is escaped (`< > & " '`), so a title, tag, path or property
// from a note is text wherever it lands, an attribute included; the one unescaped value,
// `{{{html}}}`, is the note body MarkdownHTML made in safe mode. Pages work without JavaScript;
// /assets/sheaf.js only adds search as you type and keyboard shortcuts.
import Mustache
import SheafCore

enum Templates {
    static let library: MustacheLibrary = {
        MustacheContentTypes.register(ScalarHTML(), named: ScalarHTML.name)
        var library = MustacheLibrary()
        for (name, text) in sources {
            // Every template, and every partial it renders, escapes through ScalarHTML.
            let escaped = "{{% CONTENT_TYPE: \(ScalarHTML.name)}}" + text
            do { try library.register(escaped, named: name) } catch { preconditionFailure("template \(name): \(error)") }
        }
        return library
    }()

    /// `{{name}}`'s escaping: `< > & " '` as entities, scalar by scalar. swift-mustache's own goes
    /// Character by Character, and a `"` with a combining mark after it is one Character that
    /// is not `"`: it stayed as it was and ended the attribute it stood in (a file name or a
    /// search query then added an event handler to the page).
    struct ScalarHTML: MustacheContentType {
        static let name = "SHEAFHTML"

        func escapeText(_ text: String) -> String {
            text.replacingScalars(["<": "&lt;", ">": "&gt;", "&": "&amp;", "\"": "&quot;", "'": "&#39;"])
        }
    }

    static func render(_ name: String, _ values: [String: Any]) -> String {
        library.render(values, withTemplate: name) ?? ""
    }

    private static let sources: [(String, String)] = [
        ("layout", """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>{{title}} · {{vault}}</title>
            <link rel="stylesheet" href="/assets/sheaf.css">
            <script src="/assets/sheaf.js" defer></script>
            </head>
            <body>
            <header class="bar">
            <a class="home" href="/">{{vault}}</a>
            <form class="search" action="/search" method="get" role="search">
            <input type="search" id="q" name="q" value="{{query}}" placeholder="Search  /" autocomplete="off" aria-label="Search">
            </form>
            <nav><span id="sync" class="meta"></span> {{#shares}}<span id="shares" class="meta">{{shares}}</span> {{/shares}}{{#form}}<a id="new" href="/new">New</a> {{/form}}<a href="/tags">Tags</a> <a href="/conflicts">Conflicts</a>
            {{#form}}<form class="today" method="post" action="/daily"><input type="hidden" name="csrf" value="{{form}}"><button id="today" type="submit">Today</button></form>{{/form}}</nav>
            </header>
            <div id="live" class="live" hidden></div>
            <main>
            {{{content}}}
            </main>
            </body>
            </html>
            """),
        ("crumbs", """
            <nav class="crumbs"><a href="/">{{vault}}</a>{{#crumbs}} / <a href="{{url}}">{{name}}</a>{{/crumbs}}</nav>
            """),
        ("folder", """
            {{> crumbs}}
            <h1>{{name}}</h1>
            {{#new}}<p class="actions"><a href="{{new}}">New note here</a></p>{{/new}}
            {{#hasFolders}}<ul class="folders">{{/hasFolders}}{{#folders}}<li><a href="{{url}}">{{name}}/</a> <span class="meta">{{count}}</span></li>{{/folders}}{{#hasFolders}}</ul>{{/hasFolders}}
            {{> notelist}}
            {{#hasFiles}}<h2>Files</h2><ul class="files">{{/hasFiles}}{{#files}}<li><a href="{{url}}">{{name}}</a></li>{{/files}}{{#hasFiles}}</ul>{{/hasFiles}}
            """),
        ("notelist", """
            <ul class="notes">{{#notes}}<li><a href="{{url}}">{{title}}</a> <span class="meta">{{date}}</span>{{#snippet}}<p>{{snippet}}</p>{{/snippet}}</li>{{/notes}}</ul>
            """),
        ("note", """
            <article class="note" data-path="{{path}}">
            {{> crumbs}}
            {{#saved}}<p class="saved">{{saved}}</p>{{/saved}}
            <p class="actions">{{#edit}}<a id="edit" href="{{edit}}">Edit</a> · {{/edit}}<a href="{{history}}">History</a></p>
            {{#hasProperties}}<table class="properties">{{/hasProperties}}{{#properties}}<tr><th>{{key}}</th><td>{{#values}}{{#url}}<a href="{{url}}">{{text}}</a>{{/url}}{{^url}}<span>{{text}}</span>{{/url}} {{/values}}</td></tr>{{/properties}}{{#hasProperties}}</table>{{/hasProperties}}
            {{#hasTags}}<p class="tags">{{/hasTags}}{{#tags}}<a class="tag" href="{{url}}">#{{name}}</a> {{/tags}}{{#hasTags}}</p>{{/hasTags}}
            {{#form}}<details class="retag"><summary>Edit tags</summary><form method="post" action="{{retag}}"><input type="hidden" name="csrf" value="{{form}}"><input type="hidden" name="shown" value="{{shownTags}}"><input name="tags" value="{{shownTags}}" aria-label="Tags, separated by commas"> <button type="submit">Save tags</button></form></details>{{/form}}
            <div class="body">
            {{{html}}}
            </div>
            {{#form}}<form class="append" method="post" action="{{append}}"><input type="hidden" name="csrf" value="{{form}}"><textarea name="text" rows="3" aria-label="Append to this note" placeholder="Append to this note"></textarea> <button type="submit">Append</button></form>{{/form}}
            <section class="backlinks">
            <h2>Backlinks</h2>
            {{#backlinks}}<div class="backlink"><a href="{{url}}">{{title}}</a>{{#lines}}<blockquote>{{.}}</blockquote>{{/lines}}</div>{{/backlinks}}
            {{^backlinks}}<p class="meta">No note links here.</p>{{/backlinks}}
            </section>
            </article>
            """),
        ("new", """
            <h1>New note</h1>
            <form class="new" method="post" action="/new">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <p><label>Folder <input name="folder" value="{{folder}}" placeholder="(the vault's new-note folder)"></label></p>
            <p><label>Title <input name="title" required autofocus></label></p>
            <p><label>Tags <input name="tags" placeholder="comma, separated"></label></p>
            <textarea name="body" rows="12" aria-label="Text"></textarea>
            <p><button type="submit">Make the note</button></p>
            </form>
            """),
        ("edit", """
            {{> crumbs}}
            <form class="edit" method="post" action="{{action}}" data-path="{{path}}">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <input type="hidden" name="base" value="{{base}}">
            <textarea name="text" rows="24" spellcheck="true" autofocus>
            {{text}}</textarea>
            <p><button type="submit">Save</button> <a href="{{back}}">Cancel</a></p>
            </form>
            """),
        ("history", """
            {{> crumbs}}
            <h1>History of {{name}}</h1>
            <ol class="history">{{#entries}}<li><a href="{{url}}">{{time}}</a> <span class="meta">{{kind}} · {{author}} · <a href="{{diff}}">changes to today</a></span><p>{{summary}}</p></li>{{/entries}}</ol>
            {{^entries}}<p class="meta">No commit holds this note yet.</p>{{/entries}}
            """),
        ("version", """
            {{> crumbs}}
            <h1>{{name}} at {{commit}}</h1>
            {{#form}}<form method="post" action="{{restore}}"><input type="hidden" name="csrf" value="{{form}}"><input type="hidden" name="rev" value="{{commit}}"><button type="submit">Restore this version</button> <span class="meta">(the note as it is now stays in history)</span></form>{{/form}}
            <h2 id="diff">From this version to today</h2>
            {{#gone}}<p class="meta">The note is gone today: every line of this version is removed.</p>{{/gone}}
            {{#same}}<p class="meta">The note today is this version.</p>{{/same}}
            {{^same}}<div class="diff">{{#diff}}<div class="{{kind}}"><span class="sign">{{sign}}</span>{{text}}</div>{{/diff}}</div>{{/same}}
            <h2>This version</h2>
            <pre class="version">{{text}}</pre>
            """),
        ("conflicts", """
            <h1>Conflicts</h1>
            {{#conflicts}}<div class="conflict"><p><a href="{{noteURL}}">{{original}}</a> and its conflict file <a href="{{fileURL}}">{{file}}</a></p>
            {{#form}}<form method="post" action="/resolve"><input type="hidden" name="csrf" value="{{form}}"><input type="hidden" name="note" value="{{original}}">
            <button name="keep" value="local" type="submit">Keep the note</button> <button name="keep" value="remote" type="submit">Keep the conflict file's version</button> <button name="keep" value="both" type="submit">Keep both</button></form>{{/form}}</div>{{/conflicts}}
            {{^conflicts}}<p class="meta">No conflicts.</p>{{/conflicts}}
            """),
        ("search", """
            <h1>Search</h1>
            <div id="results">{{> results}}</div>
            """),
        ("results", """
            {{#error}}<p class="error">{{error}}</p>{{/error}}{{#relaxed}}<p class="meta">No note holds every word; these hold some of them.</p>{{/relaxed}}<ol class="hits">{{#hits}}<li><a href="{{url}}">{{title}}</a> <span class="meta">{{path}}</span><p>{{#snippet}}{{#match}}<mark>{{text}}</mark>{{/match}}{{^match}}{{text}}{{/match}}{{/snippet}}</p></li>{{/hits}}</ol>{{#empty}}<p class="meta">No note matches.</p>{{/empty}}
            """),
        ("tags", """
            <h1>Tags</h1>
            <ul class="tagcloud">{{#tags}}<li><a class="tag" href="{{url}}">#{{name}}</a> <span class="meta">{{count}}</span></li>{{/tags}}</ul>
            """),
        ("tag", """
            <h1>#{{name}}</h1>
            {{> notelist}}
            """),
        ("message", """
            <h1>{{heading}}</h1>
            <p>{{message}}</p>
            """),
    ]
}
