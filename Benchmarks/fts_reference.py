#!/usr/bin/env python3
"""References for the index benchmarks: a plain single-threaded FTS5 bulk load, and a plain
FTS5 update of the notes two commits differ in.

    python3 Benchmarks/fts_reference.py VAULT DB [--exact]
    python3 Benchmarks/fts_reference.py update VAULT DB OLD NEW [--fsync]

Walks VAULT (skipping dot-folders and dot-files), reads every *.md / *.markdown note, splits the
YAML front-matter (between a leading `---` line and the next `---` or `...` line) from the body,
takes the title (front-matter `title`, else the first `# ` heading, else the file stem) and inserts
(path, title, body) into one FTS5 table in one transaction:

    CREATE VIRTUAL TABLE notes USING fts5(path, title, body,
        tokenize='porter unicode61 remove_diacritics 2')

No catalog, no tags or links, default pragmas, no 'optimize'. DB is deleted first.

With `--exact` every row also goes into a second table of the same columns, tokenized by
`unicode61 remove_diacritics 2` alone and holding no second copy of the text (`content=''`):
the plain FTS5 index of what Sheaf's one table answers, the words' stems (a word or phrase
query) and the words as written (an exact word, `=copying`, and a prefix, which porter's stems
cannot answer: `copying` is stored as `copi`).

Prints one JSON object: seconds (walk + read + parse + insert + commit, wall clock), notes, bytes
(the notes' bytes read), body_bytes (UTF-8 bytes of text inserted), db_bytes, db_ratio (db_bytes /
bytes), exact, and the SQLite and Python versions. Run it right after generating the vault (warm
page cache), as `sheaf index` is measured.

`update` is the floor of a pull's index update (the sync benchmark runs it after each `git pull`
of its git clone, with the commits before and after): DB is the bulk load of VAULT as it was at
OLD; the notes `git diff OLD NEW` names are read and parsed as above, and in one transaction each
changed or removed note's row is deleted (FTS5 reads its stored text and tokenizes it again, as
Sheaf's contentless table does with the old version's text) and each changed or added note
inserted. Prints seconds (read + parse + transaction + commit, wall clock) and notes.

With `--fsync` it first syncs, one after another, every file the diff names that exists (notes
and attachments alike), as `sheaf pull` syncs each file it writes before swapping it in, and
prints the time that took as fsync_seconds (not counted in seconds): `git pull` itself syncs no
work-tree file, so `git pull` + this + the update is the floor of a pull that loses no written
file to a crash.
"""

import json
import os
import platform
import re
import sqlite3
import sys
import time

FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)^(?:---|\.\.\.)[ \t]*\r?$\n?", re.S | re.M)
TITLE_KEY = re.compile(r"^title:[ \t]*(.*?)[ \t]*\r?$", re.M)
HEADING = re.compile(r"^# +(.+?)[ \t]*\r?$", re.M)


def note_files(vault):
    for dirpath, dirnames, filenames in os.walk(vault):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if not name.startswith(".") and name.endswith((".md", ".markdown")):
                yield os.path.join(dirpath, name)


def unquote(value):
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    return value


def parse(text, stem):
    if text.startswith("\ufeff"):
        text = text[1:]
    title = None
    body = text
    m = FRONT_MATTER.match(text)
    if m:
        body = text[m.end():]
        t = TITLE_KEY.search(m.group(1))
        if t and t.group(1):
            title = unquote(t.group(1))
    if not title:
        h = HEADING.search(body)
        title = h.group(1) if h else stem
    return title, body


def fsync_each(vault, names):
    start = time.perf_counter()
    for name in names:
        full = os.path.join(os.fsencode(vault), name)
        if os.path.isfile(full) and not os.path.islink(full):
            fd = os.open(full, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    return time.perf_counter() - start


def update(vault, db, old, new, durable=False):
    import subprocess
    names = subprocess.run(["git", "-C", vault, "diff", "--name-only", "--no-renames", "-z", old, new],
                           check=True, capture_output=True).stdout.split(b"\0")
    fsync_seconds = fsync_each(vault, [n for n in names if n]) if durable else None
    paths = sorted(n.decode("utf-8", "surrogateescape") for n in names
                   if n and not os.path.basename(n).startswith(b".") and n.endswith((b".md", b".markdown")))
    conn = sqlite3.connect(db, isolation_level=None)
    rowids = {path: rowid for rowid, path in conn.execute("SELECT rowid, path FROM notes")}
    start = time.perf_counter()
    conn.execute("BEGIN")
    for rel in paths:
        if rel in rowids:
            conn.execute("DELETE FROM notes WHERE rowid = ?", (rowids[rel],))
        full = os.path.join(vault, rel)
        if os.path.isfile(full):
            with open(full, "rb") as f:
                text = f.read().decode("utf-8", "replace")
            title, body = parse(text, os.path.splitext(os.path.basename(full))[0])
            conn.execute("INSERT INTO notes(path, title, body) VALUES (?, ?, ?)", (rel, title, body))
    conn.execute("COMMIT")
    seconds = time.perf_counter() - start
    conn.close()
    result = {"seconds": round(seconds, 4), "notes": len(paths)}
    if fsync_seconds is not None:
        result["fsync_seconds"] = round(fsync_seconds, 4)
    print(json.dumps(result))


def main():
    if len(sys.argv) in (6, 7) and sys.argv[1] == "update":
        if len(sys.argv) == 7 and sys.argv[6] != "--fsync":
            sys.exit("usage: fts_reference.py update VAULT DB OLD NEW [--fsync]")
        return update(*sys.argv[2:6], durable=len(sys.argv) == 7)
    exact = sys.argv[3:] == ["--exact"]
    if len(sys.argv) != 3 and not exact:
        sys.exit("usage: fts_reference.py VAULT DB [--exact]")
    vault, db = sys.argv[1], sys.argv[2]
    for suffix in ("", "-journal", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    stats = {"notes": 0, "bytes": 0, "body_bytes": 0}

    def rows():
        for full in note_files(vault):
            with open(full, "rb") as f:
                raw = f.read()
            stats["notes"] += 1
            stats["bytes"] += len(raw)
            text = raw.decode("utf-8", "replace")
            rel = os.path.relpath(full, vault).replace(os.sep, "/")
            stem = os.path.splitext(os.path.basename(full))[0]
            title, body = parse(text, stem)
            stats["body_bytes"] += len(body.encode("utf-8"))
            yield rel, title, body

    start = time.perf_counter()
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("CREATE VIRTUAL TABLE notes USING fts5(path, title, body, "
                 "tokenize='porter unicode61 remove_diacritics 2')")
    if exact:
        conn.execute("CREATE VIRTUAL TABLE words USING fts5(path, title, body, "
                     "content='', tokenize='unicode61 remove_diacritics 2')")
    conn.execute("BEGIN")
    if exact:
        for row in rows():
            conn.execute("INSERT INTO notes(path, title, body) VALUES (?, ?, ?)", row)
            conn.execute("INSERT INTO words(path, title, body) VALUES (?, ?, ?)", row)
    else:
        conn.executemany("INSERT INTO notes(path, title, body) VALUES (?, ?, ?)", rows())
    conn.execute("COMMIT")
    conn.close()
    seconds = time.perf_counter() - start
    db_bytes = os.path.getsize(db)
    print(json.dumps({
        "seconds": round(seconds, 3),
        "notes": stats["notes"],
        "bytes": stats["bytes"],
        "body_bytes": stats["body_bytes"],
        "db_bytes": db_bytes,
        "db_ratio": round(db_bytes / stats["bytes"], 3) if stats["bytes"] else None,
        "exact": exact,
        "sqlite": sqlite3.sqlite_version,
        "python": platform.python_version(),
    }))


if __name__ == "__main__":
    main()
