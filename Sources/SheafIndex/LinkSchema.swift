// Issue 12 changed what a note's links are (cmark-gfm's blocks: nothing from HTML comments or
// code in quotes; front-matter property links; `\|` in tables), so the links table of an older
// index is wrong for notes that have not changed. This migration empties the catalog and marks
// the index for a rebuild, like "v2-prefix-tokens": the next scan reads every file again.
import GRDB

enum LinkSchema {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3-links-from-blocks") { db in
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
        }
    }
}
