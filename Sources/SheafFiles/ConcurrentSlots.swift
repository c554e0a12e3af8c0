import Foundation

/// Results that concurrent workers write by index (DispatchQueue.concurrentPerform), read once
/// all of them are done; plus a shared counter for progress.
public final class ConcurrentSlots<T>: @unchecked Sendable {
    private var storage: [T?]
    private var count = 0
    private let lock = NSLock()

    public init(count: Int) { storage = Array(repeating: nil, count: count) }

    public func set(_ i: Int, _ value: T) { lock.lock(); storage[i] = value; lock.unlock() }

    /// Adds one to the counter and returns the new value.
    public func increment() -> Int { lock.lock(); defer { lock.unlock() }; count += 1; return count }

    /// The values set so far, in index order.
    public var values: [T] { lock.lock(); defer { lock.unlock() }; return storage.compactMap { $0 } }
}
