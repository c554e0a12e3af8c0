// Shared by the test targets: a small deterministic random generator (SplitMix64), so property
// tests and randomised CLI tests replay exactly from their seed.

public struct SeededRandom: RandomNumberGenerator {
    public var state: UInt64
    public init(seed: Int) { state = UInt64(truncatingIfNeeded: seed) &+ 0x9E3779B97F4A7C15 }
    public init(state: UInt64) { self.state = state }
    public mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
}
