// An index as an older Sheaf left it: migrated up to a named migration and not marked for a
// rebuild, so opening it with this Sheaf's migrations must notice what changed since.
import GRDB
@testable import SheafIndex

enum OldIndex {
    static func make(in root: String, upTo migration: String) throws {
        var config = Configuration()
        config.prepareDatabase { db in db.add(tokenizer: StemAndWordTokenizer.self) }
        let old = try DatabaseQueue(path: root + "/.sheaf/index.sqlite", configuration: config)
        try Schema.migrator.migrate(old, upTo: migration)
        try old.write { db in try db.execute(sql: "DELETE FROM meta WHERE key = 'needs_rebuild'") }
    }
}
