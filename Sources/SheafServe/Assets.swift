// The stylesheet and the one script, served from /assets/ (the Content-Security-Policy allows
// no inline style or script). The script only adds to pages that work without it: search as
// you type (the server renders the results; the script puts them under the search box) and the
// keyboard: `/` search, `e` edit, `g d` today's daily note; and live pages (LiveEvents).
enum Assets {
    static let css = """
        :root { color-scheme: light dark; --fg: #1d1d1f; --bg: #fdfdfc; --muted: #6b6b70; --accent: #2f5fb3; --line: #e3e3e0; --mark: #fff1a8; --code: #f3f3f1; --added: #dcf5dc; --removed: #fbe1e1; }
        @media (prefers-color-scheme: dark) {
          :root { --fg: #e6e6e3; --bg: #18181a; --muted: #9a9aa0; --accent: #8fb3ff; --line: #333337; --mark: #5a4d00; --code: #242428; --added: #1e3a22; --removed: #46201f; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.55 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
        a { color: var(--accent); text-decoration: none; } a:hover { text-decoration: underline; }
        .bar { display: flex; gap: 1rem; align-items: center; padding: .5rem 1rem; border-bottom: 1px solid var(--line); position: sticky; top: 0; background: var(--bg); }
        .bar .home { font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 30%; }
        .bar .search { flex: 1; } .bar input { width: 100%; padding: .35rem .6rem; font: inherit; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); }
        main { max-width: 46rem; margin: 0 auto; padding: 1rem; overflow-wrap: anywhere; }
        .live { max-width: 46rem; margin: 0 auto; padding: 0 1rem; border-bottom: 1px solid var(--line); }
        .crumbs, .meta { color: var(--muted); font-size: .9rem; }
        ul.notes, ul.folders, ul.files, ol.hits, ul.tagcloud { list-style: none; padding: 0; }
        ul.notes li, ol.hits li { padding: .4rem 0; border-bottom: 1px solid var(--line); }
        ul.notes p, ol.hits p { margin: .2rem 0 0; color: var(--muted); font-size: .92rem; }
        ul.tagcloud li { display: inline-block; margin: 0 .8rem .4rem 0; }
        mark { background: var(--mark); color: inherit; }
        .tag { font-size: .92rem; }
        table { border-collapse: collapse; } th, td { border: 1px solid var(--line); padding: .25rem .5rem; text-align: left; vertical-align: top; }
        table.properties { font-size: .92rem; margin-bottom: 1rem; } table.properties th { color: var(--muted); font-weight: 500; }
        pre, code { background: var(--code); border-radius: 4px; } pre { padding: .7rem; overflow-x: auto; } code { padding: .1rem .25rem; }
        pre code { padding: 0; }
        img { max-width: 100%; height: auto; }
        blockquote { margin: .3rem 0; padding-left: .8rem; border-left: 3px solid var(--line); color: var(--muted); }
        .backlinks { margin-top: 2rem; border-top: 1px solid var(--line); } .backlink { margin: .6rem 0; }
        .error { color: #c0392b; }
        nav form.today { display: inline; } nav button { font: inherit; }
        form.append { display: flex; gap: .5rem; align-items: flex-end; margin: 1rem 0; } form.append textarea { flex: 1; font: inherit; padding: .4rem; color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 6px; }
        details.retag { font-size: .92rem; margin-bottom: 1rem; } details.retag summary { color: var(--muted); cursor: pointer; }
        form.new input, form.new textarea, details.retag input { font: inherit; padding: .3rem .5rem; color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 6px; } form.new textarea { width: 100%; }
        .saved { padding: .4rem .6rem; border-left: 3px solid var(--accent); background: var(--code); }
        form.edit textarea { width: 100%; min-height: 60vh; font: 14px/1.5 ui-monospace, monospace; padding: .6rem; color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 6px; }
        ul.contains-task-list, li.task-list-item { list-style: none; }
        .diff { font: 14px/1.45 ui-monospace, monospace; border: 1px solid var(--line); border-radius: 6px; overflow-x: auto; }
        .diff div { white-space: pre-wrap; padding: 0 .5rem; min-height: 1.45em; } .diff .sign { display: inline-block; width: 1.2em; color: var(--muted); user-select: none; }
        .diff .added { background: var(--added); } .diff .removed { background: var(--removed); text-decoration: line-through; text-decoration-color: var(--muted); }
        .diff .skipped { color: var(--muted); font-style: italic; background: var(--code); }
        """

    static let js = """
        "use strict";
        (function () {
          const box = document.getElementById("q");
          const live = document.getElementById("live");
          const results = document.getElementById("results");
          let timer = null, asked = 0;
          function show(html) {
            if (results) { results.innerHTML = html; return; }
            live.innerHTML = html; live.hidden = html === "";
          }
          if (box) box.addEventListener("input", function () {
            clearTimeout(timer);
            timer = setTimeout(function () {
              const q = box.value.trim(), n = ++asked;
              if (q === "") { show(""); return; }
              fetch("/search?fragment=1&q=" + encodeURIComponent(q), { credentials: "same-origin" })
                .then(function (r) { return r.text(); })
                .then(function (html) { if (n === asked) show(html); });
            }, 120);
          });
          // Live: the watcher's events (server-sent). The open note, or any list, is fetched
          // again when it changed; a page being edited only says so (its save merges).
          const sync = document.getElementById("sync");
          function refresh() {
            fetch(location.href, { credentials: "same-origin" })
              .then(function (r) { return r.ok ? r.text() : null; })
              .then(function (html) {
                if (html === null) return;
                const fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main");
                const main = document.querySelector("main");
                if (fresh && main) main.replaceWith(document.importNode(fresh, true));
              });
          }
          if (window.EventSource) {
            const source = new EventSource("/events");
            source.addEventListener("vault", function (e) {
              const d = JSON.parse(e.data);
              if (d.kind === "offline") sync.textContent = "offline";
              else if (d.kind === "online" || d.kind === "synced") sync.textContent = "in step";
              else if (d.kind === "conflicts") sync.textContent = "conflicts: " + d.paths.length;
              const set = d.changes || d.pulled;
              if (!set) return;
              const touched = set.added.concat(set.changed, set.removed,
                set.renamed.map(function (r) { return r.from; }), set.renamed.map(function (r) { return r.to; }));
              if (touched.length === 0) return;
              const note = document.querySelector("article.note");
              if (note && touched.indexOf(note.dataset.path) < 0) return;
              const editing = document.querySelector("form.edit");
              if (editing) {
                if (touched.indexOf(editing.dataset.path) >= 0) sync.textContent = "changed on disk: your save will merge";
                return;
              }
              // Text typed into a form of the page (append, tags) is never thrown away.
              const typed = Array.prototype.some.call(document.querySelectorAll("main textarea, main input:not([type=hidden])"),
                function (f) { return f.value !== f.defaultValue; });
              if (typed) { sync.textContent = "changed on disk"; return; }
              refresh();
            });
          }
          let lastKey = "";
          document.addEventListener("keydown", function (e) {
            const t = e.target;
            if (e.ctrlKey || e.metaKey || e.altKey || (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA"))) return;
            if (e.key === "/" && box) { e.preventDefault(); box.focus(); box.select(); }
            const today = document.getElementById("today");
            if (e.key === "d" && lastKey === "g" && today) { e.preventDefault(); today.click(); }
            lastKey = e.key;
            const edit = document.getElementById("edit");
            if (e.key === "e" && edit) { e.preventDefault(); location.href = edit.href; }
          });
        })();
        """
}
