// The catalog's schema. Migrations are append-only: a shipped migration is never edited. A
// change to what the index holds (a tokenizer, a column) is a new migration that also marks the
// index as needing a rebuild from the files, so users never fix a database by hand.
import GRDB

enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE meta (key TEXT PRIMARY KEY, value NOT NULL);
                INSERT INTO meta (key, value) VALUES ('next_fts_rowid', 1), ('dead_fts_rows', 0);
                CREATE TABLE notes (
                    rowid INTEGER PRIMARY KEY,
                    path TEXT NOT NULL UNIQUE,
                    folder TEXT NOT NULL,
                    note_id TEXT,
                    title TEXT NOT NULL,
                    aliases TEXT NOT NULL,          -- one per line
                    created REAL NOT NULL,          -- seconds since 1970, front-matter or mtime
                    modified REAL NOT NULL,
                    size INTEGER NOT NULL,
                    mtime_ns INTEGER NOT NULL,
                    inode INTEGER NOT NULL,
                    hash TEXT NOT NULL,             -- FNV-1a 64 of the bytes
                    snippet TEXT NOT NULL,
                    warnings TEXT NOT NULL,         -- one per line, empty when none
                    is_conflict INTEGER NOT NULL DEFAULT 0,
                    fts_rowid INTEGER NOT NULL      -- the live row of note_fts
                );
                CREATE UNIQUE INDEX notes_fts_rowid ON notes(fts_rowid);  -- the FTS-to-catalog join
                CREATE INDEX notes_note_id ON notes(note_id);
                CREATE INDEX notes_hash ON notes(hash);
                CREATE INDEX notes_folder ON notes(folder);
                CREATE TABLE tags (
                    note INTEGER NOT NULL REFERENCES notes(rowid) ON DELETE CASCADE,
                    tag TEXT NOT NULL,              -- as written
                    key TEXT NOT NULL               -- lower-cased, without '#'
                );
                CREATE INDEX tags_key ON tags(key);
                CREATE INDEX tags_note ON tags(note);
                CREATE TABLE links (
                    note INTEGER NOT NULL REFERENCES notes(rowid) ON DELETE CASCADE,
                    kind TEXT NOT NULL,
                    target TEXT NOT NULL,           -- as written (decoded for markdown links)
                    target_key TEXT NOT NULL        -- lower-cased file name without .md: the lookup key
                );
                -- Links are resolved when read (backlinks), so a note added later is found
                -- without re-indexing the notes that link to it.
                CREATE INDEX links_note ON links(note);
                CREATE INDEX links_target_key ON links(target_key);
                CREATE TABLE files (                -- every vault file that is not a note
                    path TEXT PRIMARY KEY,
                    name_key TEXT NOT NULL,         -- lower-cased file name: what links look up
                    size INTEGER NOT NULL,
                    mtime_ns INTEGER NOT NULL,
                    inode INTEGER NOT NULL
                );
                CREATE TABLE attachments (          -- filled by the media issue
                    path TEXT PRIMARY KEY,
                    hash TEXT,
                    type TEXT,
                    width INTEGER,
                    height INTEGER,
                    thumbnail TEXT
                );
                -- Contentless: the text lives in the files, the index holds only postings.
                -- Rows of an edited or deleted note stay as dead rows until the next compaction
                -- (SQLite 3.40 cannot delete from a contentless table without the old text).
                CREATE INDEX files_name_key ON files(name_key);
                -- cjk holds the overlapping bigrams of every Chinese, Japanese and Korean run of
                -- the note (unicode61 glues such runs into one token), so any 2+ character
                -- substring is found as a phrase of bigrams.
                CREATE VIRTUAL TABLE note_fts USING fts5(
                    title, aliases, tags, path, meta, body, cjk,
                    content='', tokenize='porter unicode61 remove_diacritics 2'
                );
                """)
        }
        // Prefix queries on stemmed words (`runn*` finds `running`): the FTS table is made again
        // with the `sheaf` tokenizer (StemAndWordTokenizer), which also indexes unstemmed words.
        // A contentless table cannot be re-tokenized, so the catalog is emptied with it and the
        // next scan reads every file again. The indexes on note_id, hash and folder go: no query
        // looks them up (renames match hashes in memory; `in:` compares folders without case), and
        // the unstemmed words need their room (index size budget: 1.2x the notes).
        migrator.registerMigration("v2-prefix-tokens") { db in
            try db.execute(sql: """
                DROP INDEX notes_note_id;
                DROP INDEX notes_hash;
                DROP INDEX notes_folder;
                DROP TABLE note_fts;
                CREATE VIRTUAL TABLE note_fts USING fts5(
                    title, aliases, tags, path, meta, body, cjk,
                    content='', tokenize='sheaf'
                );
                -- Merge 8 segments of a level instead of 4: loading 10k notes took 17% less time
                -- (Benchmarks, plain FTS5), for 1% more size.
                INSERT INTO note_fts (note_fts, rank) VALUES ('automerge', 8);
                """)
            try forgetEveryFile(db)
        }
        AttachmentSchema.register(in: &migrator)  // "v2-attachments", AttachmentCatalog.swift
        // One content hash: `notes.hash` and `attachments.hash` become git blob ids (GitBlobID),
        // where they were FNV-1a 64. Every stored hash is stale, so the catalog is emptied and the
        // next scan reads every file again; the attachments go too, so their thumbnails are made
        // again under blob-id names. Thumbnails under the old 16-digit names are never looked up
        // again (a blob id has 40 digits) and `sheaf gc` deletes them.
        migrator.registerMigration("v3-git-blob-ids") { db in
            try forgetEveryFile(db, attachmentsToo: true)
        }
        LinkSchema.register(in: &migrator)        // "v3-links-from-blocks", LinkSchema.swift
        // Exact words (`=run` must not match `running`): the `sheaf` tokenizer now indexes every word
        // unmarked and its stem, when it differs, behind a marker (StemAndWordTokenizer), where it
        // indexed the stem unmarked and the word only when it differed. Postings made the old way
        // cannot be told apart, so the FTS rows go and the next scan reads every file again.
        // Cost on the 10k benchmark vault (45.3 MB of notes): FTS data 43.3 -> 44.6 MB (+3%: a stem
        // shared by `run` and `running` is now two posting lists); indexing the word always, marked,
        // would have made it 61.9 MB (+43%).
        migrator.registerMigration("v4-exact-words") { db in
            try forgetEveryFile(db)
        }
        // FTS rows deleted with their old text (FTSDeletes.swift): `fts_rules` names the text rules
        // every row was made under. Rows made before it are of unknown rules: 'mixed', so nothing
        // is deleted until the next compaction remakes them all (a new index set it when emptied).
        migrator.registerMigration("v5-fts-deletes") { db in
            try db.execute(sql: "INSERT OR IGNORE INTO meta (key, value) VALUES ('fts_rules', 'mixed')")
        }
        // Titles as a reader sees them (an H1 below body text is no title; link syntax in an H1
        // becomes its text), and the file name searched with the aliases, at the title's weight: stored titles and
        // FTS rows are stale, so the next scan reads every file again (text rules "text 2").
        migrator.registerMigration("v6-readable-titles") { db in
            try forgetEveryFile(db)
        }
        // Each link's line (`Note.linkLines`), stored with it: a page of backlinks shows the
        // lines holding the links without reading and parsing every linking note again. Rows
        // made before have no line, so the next scan reads every file again.
        migrator.registerMigration("v7-link-lines") { db in
            try db.execute(sql: "ALTER TABLE links ADD COLUMN line TEXT NOT NULL DEFAULT ''")
            try forgetEveryFile(db)
        }
        // Each link's place instead of its line: `byte_offset`, where its target starts in the note's
        // text (`Note.linkOffsets`); a page of backlinks cuts the line from the linking note when
        // it is made (a note changed since it was indexed is parsed again). The lines made the
        // index 1.35x the notes' bytes at 10k (a window of 180 bytes a link; 1.22x without them).
        migrator.registerMigration("v8-link-offsets") { db in
            try forgetEveryFile(db)
            try db.execute(sql: """
                ALTER TABLE links DROP COLUMN line;
                ALTER TABLE links ADD COLUMN byte_offset INTEGER NOT NULL DEFAULT 0;
                """)
        }
        // The body first among the FTS columns: FTS5 writes a column number (0x01 and a varint)
        // before the positions of every column but the first, once per term and note, and the
        // body holds 96% of the postings. At 10k (45.3 MB of notes) that was 12.5 MB of 44.7: the
        // index went from 1.22x to 0.94x the notes' bytes, with the same answers and scores. The
        // table is made again, so the next scan reads every file again; bm25's weights follow
        // the order (`NoteIndex.weights`).
        migrator.registerMigration("v9-body-first") { db in
            try db.execute(sql: """
                DROP TABLE note_fts;
                CREATE VIRTUAL TABLE note_fts USING fts5(
                    body, title, aliases, tags, path, meta, cjk,
                    content='', tokenize='sheaf'
                );
                INSERT INTO note_fts (note_fts, rank) VALUES ('automerge', 8);
                """)
            try forgetEveryFile(db)
        }
        // No query looks tags up by key: a `tag:` filter is a subquery per note (`t.note =
        // n.rowid`), which SQLite answers from `tags_note` (EXPLAIN QUERY PLAN). 0.5 MB at 10k.
        migrator.registerMigration("v10-no-tag-key-index") { db in
            try db.execute(sql: "DROP INDEX tags_key")
        }
        // FTS5 writes its pending terms out as a new segment each time they pass `hashsize`
        // bytes (1 MB by default), and every few segments are merged again: a cold build of 10k
        // notes wrote ~100 segments. 16 MB writes a sixteenth of them and merges far less (see
        // BENCHMARKS.md). A small update commits long before that, so only big batches (a first
        // build, a clone, a large pull) hold up to 16 MB of terms in memory.
        migrator.registerMigration("v11-fts-hash-size") { db in
            try db.execute(sql: "INSERT INTO note_fts (note_fts, rank) VALUES ('hashsize', \(ftsHashSize))")
        }
        // Tag, link and file-name keys were lower-cased only, so an NFC and an NFD spelling were
        // two keys (IndexKey.swift): every file is read again (an index behind its schema is
        // rebuilt whole in any case, `NoteIndex.init`). The few links whose target ends in no
        // file name (`no_name`) get an index of their own, so that `mv` and `rm` find the links
        // they may concern by index alone (`links(concerning:)`), not by reading every link. A
        // column, not an expression: with `WHERE substr(target, -1) = '.'` as the index's
        // condition, every `DELETE FROM links WHERE note = ?` opened a statement savepoint, at
        // which FTS5 writes what it holds as a segment: one segment per rewritten note.
        migrator.registerMigration("v12-canonical-keys") { db in
            try forgetEveryFile(db)
            try db.execute(sql: """
                ALTER TABLE links ADD COLUMN no_name INTEGER NOT NULL DEFAULT 0;  -- 1: the target ends in `.` or `/`
                CREATE INDEX links_not_a_name ON links(note) WHERE no_name = 1;
                """)
        }
        return migrator
    }

    /// FTS5's `hashsize`: how many bytes of pending terms it keeps before writing a segment.
    static let ftsHashSize = 16 << 20

    /// Empties the catalog and the full-text rows and marks the index for a rebuild, for a
    /// migration after which what is stored about every file is stale: the next scan reads every
    /// file again. `attachmentsToo` also forgets the attachments (their thumbnails are remade).
    static func forgetEveryFile(_ db: Database, attachmentsToo: Bool = false) throws {
        try db.execute(sql: """
            INSERT INTO note_fts (note_fts) VALUES ('delete-all');
            DELETE FROM tags;
            DELETE FROM links;
            DELETE FROM notes;
            DELETE FROM files;
            UPDATE meta SET value = 1 WHERE key = 'next_fts_rowid';
            UPDATE meta SET value = 0 WHERE key = 'dead_fts_rows';
            INSERT OR REPLACE INTO meta (key, value) VALUES ('needs_rebuild', 1);
            """)
        try NoteIndex.emptiedRows(db)
        if attachmentsToo { try db.execute(sql: "DELETE FROM attachments") }
    }
}
