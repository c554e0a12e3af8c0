// Issue 12 changed what a note's links are (cmark-gfm's blocks: nothing from HTML comments or
// code in quotes; front-matter property links; `\|` in tables), so the links table of an older
// index is wrong for notes that have not changed. This migration empties the catalog and marks
// the index for a rebuild, like "v2-prefix-tokens": the next scan reads every file again.
import GRDB

enum LinkSchema {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3-links-from-blocks") { db in
            try Schema.forgetEveryFile(db)
        }
    }
}
