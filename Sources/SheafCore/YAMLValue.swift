// The parsed meaning of a front-matter block, as plain values in document order.
// Yams parses; this file only converts its nodes and keeps the text of every scalar as written
// (`2026-03-14` stays a string, `4` stays "4"), so nothing is reinterpreted on the way.
import Yams

/// A YAML value with scalars kept as their text.
public indirect enum YAMLValue: Equatable, Sendable {
    case null
    case scalar(String)
    case list([YAMLValue])
    case map([(String, YAMLValue)])

    /// Byte-for-byte equality of keys and scalars (see `isIdentical`).
    public static func == (a: YAMLValue, b: YAMLValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.scalar(x), .scalar(y)): return x.isIdentical(to: y)
        case let (.list(x), .list(y)): return x == y
        case let (.map(x), .map(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0.isIdentical(to: $1.0) && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The scalar's text, nil for anything else.
    public var text: String? {
        if case .scalar(let s) = self { return s }
        return nil
    }

    /// Every scalar inside, flattened, for indexing unknown keys as text.
    public var flattenedText: [String] {
        switch self {
        case .null: return []
        case .scalar(let s): return [s]
        case .list(let items): return items.flatMap(\.flattenedText)
        case .map(let pairs): return pairs.flatMap { [$0.0] + $0.1.flattenedText }
        }
    }

    /// `budget`: how many more values may be made. Aliases share their node in Yams's tree but
    /// are copied here, so 350 bytes of nested aliases ("billion laughs") made 10^7 values, a
    /// gigabyte, and hung every command that read the note and the merge driver (regression).
    init(_ node: Node, budget: inout Int) throws(FrontMatterError) {
        budget -= 1
        guard budget >= 0 else { throw FrontMatterError(line: nil, problem: "more than \(FrontMatter.maxValues) values (aliases expanding?)") }
        switch node {
        case .scalar(let scalar):
            if scalar.style == .plain, ["", "~", "null", "Null", "NULL"].contains(scalar.string) {
                self = .null
            } else {
                self = .scalar(scalar.string)
            }
        case .sequence(let seq):
            var items: [YAMLValue] = []
            for item in seq { items.append(try YAMLValue(item, budget: &budget)) }
            self = .list(items)
        case .mapping(let map):
            var pairs: [(String, YAMLValue)] = []
            for (key, value) in map { pairs.append((key.string ?? "", try YAMLValue(value, budget: &budget))) }
            self = .map(pairs)
        }
    }
}

/// Why a front-matter block could not be read. Never carries the note's text.
public struct FrontMatterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Line within the note (1 = the opening `---`), when known.
    public let line: Int?
    public let problem: String
    public var description: String {
        line.map { "invalid YAML front-matter at line \($0): \(problem)" } ?? "invalid YAML front-matter: \(problem)"
    }
}

/// The keys and values of a front-matter block, in document order.
public struct FrontMatter: Equatable, Sendable {
    public var entries: [(key: String, value: YAMLValue)]

    public static func == (a: FrontMatter, b: FrontMatter) -> Bool {
        YAMLValue.map(a.entries.map { ($0.key, $0.value) }) == YAMLValue.map(b.entries.map { ($0.key, $0.value) })
    }

    public init(entries: [(key: String, value: YAMLValue)] = []) { self.entries = entries }

    /// Parses a block's YAML. An empty block is an empty front-matter; a block that is not a
    /// mapping is an error.
    /// The most values a front matter may hold, aliases expanded.
    public static let maxValues = 100_000
    /// The deepest nesting read: flow brackets open at once, or a line's indentation and block
    /// indicators (`- `, `? `) in columns.
    static let maxFlowDepth = 200, maxBlockColumns = 1_000

    /// Whether the YAML nests deeper than Yams's recursive parser survives: 10,000 `[` (20 KB)
    /// overflowed the stack and killed every command that read the note, the merge driver
    /// included (regression). A cheap bound read from the bytes; brackets inside quotes count too.
    static func nestsTooDeep(_ yaml: String) -> Bool {
        var flow = 0
        var column = 0, atLineStart = true
        var previous: UInt8 = 0x0A
        for b in yaml.utf8 {
            if b == 0x0A { column = 0; atLineStart = true; previous = b; continue }
            if atLineStart {
                if b == 0x20 || b == 0x09 || ((b == 0x2D || b == 0x3F) && (previous == 0x20 || previous == 0x09 || previous == 0x0A)) {
                    column += 1
                    if column > maxBlockColumns { return true }
                } else {
                    atLineStart = false
                }
            }
            if b == 0x5B || b == 0x7B {
                flow += 1
                if flow > maxFlowDepth { return true }
            } else if b == 0x5D || b == 0x7D {
                flow = max(0, flow - 1)
            }
            previous = b
        }
        return false
    }

    public init(parsing block: FrontMatterBlock) throws(FrontMatterError) {
        let yaml = block.yaml
        if yaml.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\n" }) { entries = []; return }
        guard !Self.nestsTooDeep(yaml) else {
            throw FrontMatterError(line: nil, problem: "nested more than \(Self.maxFlowDepth) levels deep")
        }
        let node: Node?
        do {
            // The basic resolver: tags are never read here (scalars stay text), and the default
            // one compiles its regular expressions through ICU first (~1 ms of every process
            // that reads a note, `sheaf merge-file` among them).
            node = try Yams.compose(yaml: yaml, .basic)
        } catch let error as YamlError {
            throw Self.describe(error)
        } catch {
            throw FrontMatterError(line: nil, problem: "unreadable")
        }
        switch node {
        case nil: entries = []
        case .mapping(let map)?:
            var budget = Self.maxValues
            var read: [(key: String, value: YAMLValue)] = []
            for (key, value) in map { read.append((key: key.string ?? "", value: try YAMLValue(value, budget: &budget))) }
            entries = read
        default:
            throw FrontMatterError(line: 2, problem: "expected `key: value` lines")
        }
    }

    public subscript(key: String) -> YAMLValue? {
        entries.first { $0.key.isIdentical(to: key) }?.value
    }

    /// A string list from a key holding a YAML list or a comma/space separated string.
    public func stringList(_ key: String) -> [String] {
        switch self[key] {
        case .list(let items)?: return items.compactMap(\.text).map { $0.trimmingBlanks }.map(String.init).filter { !$0.isEmpty }
        case .scalar(let text)?: return FrontMatter.splitList(text)
        default: return []
        }
    }

    /// Splits `a, b` or `a b` into items.
    public static func splitList(_ text: String) -> [String] {
        let separators: Set<Character> = text.contains(",") ? [","] : [" ", "\t"]
        return text.split(whereSeparator: { separators.contains($0) })
            .map { String($0.trimmingBlanks) }
            .filter { !$0.isEmpty }
    }

    static func describe(_ error: YamlError) -> FrontMatterError {
        // Lines are counted within the block; +1 for the opening `---` line.
        switch error {
        case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
            return FrontMatterError(line: mark.line + 1, problem: problem)
        case let .reader(problem, _, _, _):
            return FrontMatterError(line: nil, problem: problem)
        default:
            return FrontMatterError(line: nil, problem: "unreadable")
        }
    }
}
