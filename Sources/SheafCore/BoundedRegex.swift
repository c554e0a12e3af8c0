// Regular expressions from synced settings (Obsidian's `userIgnoreFilters`) run on every path of
// every walk, so a pattern must never take exponential time: `/^(\D+)+\d{9}/` made ICU's
// backtracking matcher take 35 s per `search` on 20 ordinary note names. This is a Thompson-NFA
// (Pike VM) matcher over the syntax such filters use, JavaScript's: its time is the input's
// length times the program's size, whatever the pattern. What it cannot run in bounded time
// (back-references, look-around) or a program over `maxProgram` steps is refused at compile time,
// with the reason, never run some other way.

/// A compiled pattern that answers whether it matches anywhere in a text, in linear time.
public struct BoundedRegex: Sendable {
    /// Why a pattern was refused, in words for a warning.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// The largest program compiled; `a{1000}` and nested counted repeats grow it multiplicatively.
    public static let maxProgram = 4_000

    private let program: [Instruction]

    public init(_ pattern: String) throws(Refusal) {
        var parser = Parser(Array(pattern.unicodeScalars))
        let tree = try parser.parseAll()
        var compiler = Compiler()
        try compiler.emit(tree)
        compiler.append(.match)
        program = compiler.program
    }

    /// Whether the pattern matches somewhere in `text` (unanchored, as JavaScript's `test`).
    public func matches(_ text: String) -> Bool {
        let input = Array(text.unicodeScalars)
        var current = ThreadList(size: program.count), next = ThreadList(size: program.count)
        for position in 0...input.count {
            // A new thread starts at every position: the search is unanchored.
            if add(0, at: position, input, to: &current) { return true }
            if position == input.count { break }
            let scalar = input[position]
            next.clear()
            for pc in current.threads {
                switch program[pc] {
                case .scalars(let set) where set.contains(scalar):
                    if add(pc + 1, at: position + 1, input, to: &next) { return true }
                default: break
                }
            }
            swap(&current, &next)
        }
        return false
    }

    /// Adds the thread at `pc` and every thread its empty steps reach; true when one is a match.
    private func add(_ pc: Int, at position: Int, _ input: [Unicode.Scalar], to list: inout ThreadList) -> Bool {
        var stack = [pc]
        while let pc = stack.popLast() {
            guard list.mark(pc) else { continue }
            switch program[pc] {
            case .match: return true
            case .scalars: list.threads.append(pc)
            case .jump(let to): stack.append(to)
            case .split(let first, let second): stack.append(second); stack.append(first)
            case .assert(let assertion):
                if assertion.holds(at: position, input) { stack.append(pc + 1) }
            }
        }
        return false
    }

    /// The threads of one position, each instruction at most once (a generation stamp per
    /// instruction, so clearing is constant time).
    private struct ThreadList {
        var threads: [Int] = []
        var stamps: [Int]
        var generation = 1
        init(size: Int) { stamps = Array(repeating: 0, count: size) }
        mutating func mark(_ pc: Int) -> Bool {
            if stamps[pc] == generation { return false }
            stamps[pc] = generation
            return true
        }
        mutating func clear() {
            generation += 1
            threads.removeAll(keepingCapacity: true)
        }
    }

    enum Assertion: Sendable {
        case start, end, wordBoundary, notWordBoundary

        func holds(at position: Int, _ input: [Unicode.Scalar]) -> Bool {
            switch self {
            case .start: return position == 0
            case .end: return position == input.count
            case .wordBoundary, .notWordBoundary:
                let before = position > 0 && ScalarSet.word.contains(input[position - 1])
                let after = position < input.count && ScalarSet.word.contains(input[position])
                return (before != after) == (self == .wordBoundary)
            }
        }
    }

    enum Instruction: Sendable {
        case scalars(ScalarSet)
        case jump(Int)
        case split(Int, Int)
        case assert(Assertion)
        case match
    }

    indirect enum Node {
        case scalars(ScalarSet)
        case assert(Assertion)
        case sequence([Node])
        case either([Node])
        case repeated(Node, min: Int, max: Int?)
    }
}

/// A set of Unicode scalars as sorted, closed ranges of their values.
struct ScalarSet: Sendable {
    var ranges: [ClosedRange<UInt32>]

    init(_ ranges: [ClosedRange<UInt32>]) {
        let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<UInt32>] = []
        for r in sorted {
            if let last = merged.last, r.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        self.ranges = merged
    }

    init(_ scalar: Unicode.Scalar) { ranges = [scalar.value...scalar.value] }

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        var low = 0, high = ranges.count
        while low < high {
            let mid = (low + high) / 2
            if ranges[mid].upperBound < v { low = mid + 1 } else { high = mid }
        }
        return low < ranges.count && ranges[low].contains(v)
    }

    var inverted: ScalarSet {
        var result: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for r in ranges {
            if r.lowerBound > next { result.append(next...(r.lowerBound - 1)) }
            if r.upperBound >= 0x10FFFF { return ScalarSet(result) }
            next = r.upperBound + 1
        }
        result.append(next...0x10FFFF)
        return ScalarSet(result)
    }

    static let digit = ScalarSet([0x30...0x39])
    static let word = ScalarSet([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    /// JavaScript's `\s`: white space and line terminators.
    static let space = ScalarSet([0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A,
                                  0x2028...0x2029, 0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF])
    /// JavaScript's `.`: anything but a line terminator.
    static let dot = ScalarSet([0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029]).inverted
}
