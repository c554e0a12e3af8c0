// How a note's recorded tokens (TokenStream.swift) reach the `sheaf` tokenizer of the writer's
// connection: SQLite calls the tokenizer inside the insert, on the thread that runs it, so the
// streams sit in a slot of that thread for the length of the one statement. The tokenizer replays
// a stream only for a text with exactly the bytes it was recorded from; any other text (a query,
// a delete with other text, the highlighter, FTS5's 'rebuild') is tokenized for real.
import Foundation
import GRDB
import GRDBSQLite

enum TokenReplay {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The texts of one FTS row, each with its recorded tokens (nil: not recorded).
    private struct Slot {
        let texts: [String]
        let streams: [TokenStream?]
        /// FTS5 tokenizes the columns in order: the first one still to be asked for.
        var next = 0
    }

    /// Runs `body` (one FTS statement of `texts`) with `streams` ready for the tokenizer.
    static func replaying<R>(_ texts: [String], _ streams: [TokenStream?], _ body: () throws -> R) rethrows -> R {
        guard !streams.isEmpty else { return try body() }
        var slot = Slot(texts: texts, streams: streams)
        return try withUnsafeMutablePointer(to: &slot) { slot in
            pthread_setspecific(key, slot)
            defer { pthread_setspecific(key, nil) }
            return try body()
        }
    }

    /// The recorded tokens of `text` handed to `callback` when this thread's slot holds them, and
    /// the result; nil when it holds no stream made from these very bytes.
    static func replay(_ text: UnsafePointer<CChar>, _ count: CInt, context: UnsafeMutableRawPointer?,
                       callback: FTS5TokenCallback) -> CInt? {
        guard let raw = pthread_getspecific(key) else { return nil }
        let slot = raw.assumingMemoryBound(to: Slot.self)
        let end = min(slot.pointee.texts.count, slot.pointee.streams.count)
        var i = slot.pointee.next
        while i < end {
            if let stream = slot.pointee.streams[i], same(slot.pointee.texts[i], text, Int(count)) {
                slot.pointee.next = i + 1
                return stream.replay(context: context, callback: callback)
            }
            i += 1
        }
        return nil
    }

    private static func same(_ string: String, _ text: UnsafePointer<CChar>, _ count: Int) -> Bool {
        string.utf8.count == count
            && string.utf8.withContiguousStorageIfAvailable { memcmp($0.baseAddress!, text, count) == 0 } == true
    }
}
