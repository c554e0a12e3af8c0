// A damaged database met by a write is rebuilt from the files, once (the index is a cache).
import GRDB
import SheafCore

extension NoteIndex {
    /// Runs `attempt`; a database found damaged is started over once and `afterRebuild` runs
    /// instead (a scan of every file). Other failures become errors naming the index.
    func recoveringOnce<T>(_ attempt: () throws -> T, afterRebuild: () throws -> T) throws(SheafError) -> T {
        do {
            return try attempt()
        } catch let error where Self.isCorruption(error) {
            try startOver()
        } catch let error as SheafError {
            throw error
        } catch {
            throw Self.describe(error, path: path, writing: true)
        }
        do {
            return try afterRebuild()
        } catch let error as SheafError {
            throw error
        } catch {
            throw Self.describe(error, path: path, writing: true)
        }
    }
}
