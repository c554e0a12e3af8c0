// The watcher's timings. A burst (a `git checkout`, `cp -r` of thousands of notes) keeps the
// events coming with gaps far under the quiet period, so it is one batch; `maxLatency` bounds
// how long a never-ending trickle (a log written every 100 ms) can hold a batch back.

/// How events are gathered into batches.
public struct WatchOptions: Sendable {
    /// A batch is delivered once no event arrived for this long (seconds).
    public var quietPeriod: Double
    /// ... or once its first event is this old (seconds), whatever still arrives.
    public var maxLatency: Double
    /// How long a move's first half (IN_MOVED_FROM) waits for its second half before it counts
    /// as a removal (seconds). The kernel queues both halves of one rename together.
    public var moveWindow: Double

    public init(quietPeriod: Double = 0.2, maxLatency: Double = 2, moveWindow: Double = 0.02) {
        self.quietPeriod = quietPeriod
        self.maxLatency = maxLatency
        self.moveWindow = moveWindow
    }
}
