// Reading a JavaScript-style pattern into `BoundedRegex`'s tree, and compiling the tree into the
// Pike VM's program. Only what runs in linear time is accepted; back-references and look-around
// are refused by name, so a warning can say why a filter is not used.

extension BoundedRegex {
    struct Parser {
        let scalars: [Unicode.Scalar]
        var position = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        private func refuse(_ reason: String) -> Refusal { Refusal(reason: reason) }

        mutating func parseAll() throws(Refusal) -> Node {
            let node = try alternation()
            if position < scalars.count { throw refuse("unmatched ) at character \(position + 1)") }
            return node
        }

        private mutating func alternation() throws(Refusal) -> Node {
            var branches = [try sequence()]
            while peek == "|" {
                position += 1
                branches.append(try sequence())
            }
            return branches.count == 1 ? branches[0] : .either(branches)
        }

        private mutating func sequence() throws(Refusal) -> Node {
            var items: [Node] = []
            while let c = peek, c != "|", c != ")" {
                var atom = try self.atom()
                while let (min, max) = try quantifier() {
                    if peek == "?" { position += 1 }  // lazy: the same answer to "does it match"
                    atom = .repeated(atom, min: min, max: max)
                }
                items.append(atom)
            }
            return items.count == 1 ? items[0] : .sequence(items)
        }

        /// `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`; a `{` that starts none of them is a literal.
        private mutating func quantifier() throws(Refusal) -> (Int, Int?)? {
            switch peek {
            case "*": position += 1; return (0, nil)
            case "+": position += 1; return (1, nil)
            case "?": position += 1; return (0, 1)
            case "{":
                var i = position + 1
                func number() -> Int? {
                    var value: Int? = nil
                    while i < scalars.count, ("0"..."9").contains(scalars[i]) {
                        value = min((value ?? 0) * 10 + Int(scalars[i].value - 0x30), Int(Int32.max))
                        i += 1
                    }
                    return value
                }
                guard let low = number() else { return nil }
                var high: Int? = low
                if i < scalars.count, scalars[i] == "," {
                    i += 1
                    high = number()
                }
                guard i < scalars.count, scalars[i] == "}" else { return nil }
                if let high, high < low { throw refuse("numbers out of order in {\(low),\(high)}") }
                if max(low, high ?? 0) > BoundedRegex.maxProgram {
                    throw refuse("a repeat count over \(BoundedRegex.maxProgram)")
                }
                position = i + 1
                return (low, high)
            default: return nil
            }
        }

        private mutating func atom() throws(Refusal) -> Node {
            let c = scalars[position]
            position += 1
            switch c {
            case "^": return .assert(.start)
            case "$": return .assert(.end)
            case ".": return .scalars(.dot)
            case "*", "+", "?": throw refuse("nothing to repeat before \(c) at character \(position)")
            case "[": return .scalars(try characterClass())
            case "\\": return try escape()
            case "(":
                if peek == "?" {
                    let rest = String(String.UnicodeScalarView(scalars[position...].prefix(3)))
                    if rest.hasPrefix("?:") {
                        position += 2
                    } else if rest.hasPrefix("?=") || rest.hasPrefix("?!") || rest.hasPrefix("?<=") || rest.hasPrefix("?<!") {
                        throw refuse("look-ahead and look-behind are not supported")
                    } else if rest.hasPrefix("?<") {
                        guard let close = scalars[position...].firstIndex(of: ">") else { throw refuse("unfinished group name") }
                        position = close + 1
                    } else {
                        throw refuse("unknown group (? at character \(position))")
                    }
                }
                let inner = try alternation()
                guard peek == ")" else { throw refuse("unmatched (") }
                position += 1
                return inner
            default: return .scalars(ScalarSet(c))
            }
        }

        /// An escape outside a class.
        private mutating func escape() throws(Refusal) -> Node {
            guard let c = peek else { throw refuse("\\ at the end of the pattern") }
            switch c {
            case "b": position += 1; return .assert(.wordBoundary)
            case "B": position += 1; return .assert(.notWordBoundary)
            case "1"..."9": throw refuse("back-references (\\\(c)) are not supported")
            case "k" where position + 1 < scalars.count && scalars[position + 1] == "<":
                throw refuse("back-references (\\k<name>) are not supported")
            default: return .scalars(try escapedSet())
            }
        }

        /// The scalars an escape stands for (after the `\`), in or out of a class.
        private mutating func escapedSet() throws(Refusal) -> ScalarSet {
            let c = scalars[position]
            position += 1
            func hex(_ count: Int) -> ScalarSet? {
                guard position + count <= scalars.count,
                      let value = UInt32(String(String.UnicodeScalarView(scalars[position..<(position + count)])), radix: 16),
                      let scalar = Unicode.Scalar(value) else { return nil }
                position += count
                return ScalarSet(scalar)
            }
            switch c {
            case "d": return .digit
            case "D": return ScalarSet.digit.inverted
            case "w": return .word
            case "W": return ScalarSet.word.inverted
            case "s": return .space
            case "S": return ScalarSet.space.inverted
            case "t": return ScalarSet("\t")
            case "n": return ScalarSet("\n")
            case "r": return ScalarSet("\r")
            case "f": return ScalarSet("\u{0C}")
            case "v": return ScalarSet("\u{0B}")
            case "0": return ScalarSet("\0")
            case "x": return hex(2) ?? ScalarSet("x")
            case "u": return hex(4) ?? ScalarSet("u")
            case "c":
                if let letter = peek, letter.isASCII, letter.properties.isAlphabetic {
                    position += 1
                    return ScalarSet(Unicode.Scalar(letter.value % 32)!)
                }
                return ScalarSet("\\")
            default: return ScalarSet(c)  // `\.`, `\/`, `\\`: the character itself
            }
        }

        /// `[...]` after its `[`.
        private mutating func characterClass() throws(Refusal) -> ScalarSet {
            var negated = false
            if peek == "^" { negated = true; position += 1 }
            var ranges: [ClosedRange<UInt32>] = []
            while true {
                guard let c = peek else { throw refuse("unmatched [") }
                if c == "]" { position += 1; break }
                let first = try classAtom()
                // `a-z`; a `-` next to a set such as `\d`, or before `]`, is a literal.
                if peek == "-", position + 1 < scalars.count, scalars[position + 1] != "]",
                   let low = first.single {
                    position += 1
                    let second = try classAtom()
                    guard let high = second.single else {
                        ranges += first.ranges + [0x2D...0x2D] + second.ranges
                        continue
                    }
                    guard low <= high else { throw refuse("range out of order in a character class") }
                    ranges.append(low...high)
                } else {
                    ranges += first.ranges
                }
            }
            let set = ScalarSet(ranges)
            return negated ? set.inverted : set
        }

        private mutating func classAtom() throws(Refusal) -> ScalarSet {
            let c = scalars[position]
            position += 1
            guard c == "\\" else { return ScalarSet(c) }
            guard peek != nil else { throw refuse("\\ at the end of the pattern") }
            if peek == "b" { position += 1; return ScalarSet("\u{08}") }  // backspace inside a class
            return try escapedSet()
        }
    }

    struct Compiler {
        var program: [Instruction] = []

        mutating func append(_ instruction: Instruction) {
            program.append(instruction)
        }

        private mutating func checked(_ instruction: Instruction) throws(Refusal) {
            program.append(instruction)
            if program.count > BoundedRegex.maxProgram {
                throw Refusal(reason: "the pattern is too large to run in bounded time (over \(BoundedRegex.maxProgram) steps)")
            }
        }

        mutating func emit(_ node: Node) throws(Refusal) {
            switch node {
            case .scalars(let set): try checked(.scalars(set))
            case .assert(let assertion): try checked(.assert(assertion))
            case .sequence(let items): for item in items { try emit(item) }
            case .either(let branches):
                var jumps: [Int] = []
                for (i, branch) in branches.enumerated() {
                    if i < branches.count - 1 {
                        let split = program.count
                        try checked(.split(split + 1, -1))
                        try emit(branch)
                        jumps.append(program.count)
                        try checked(.jump(-1))
                        program[split] = .split(split + 1, program.count)
                    } else {
                        try emit(branch)
                    }
                }
                for j in jumps { program[j] = .jump(program.count) }
            case .repeated(let inner, let min, let max):
                for _ in 0..<min { try emit(inner) }
                if let max {
                    var splits: [Int] = []
                    for _ in min..<max {
                        splits.append(program.count)
                        try checked(.split(program.count + 1, -1))
                        try emit(inner)
                    }
                    for s in splits { program[s] = .split(s + 1, program.count) }
                } else {
                    let loop = program.count
                    try checked(.split(loop + 1, -1))
                    try emit(inner)
                    try checked(.jump(loop))
                    program[loop] = .split(loop + 1, program.count)
                }
            }
        }
    }
}

extension ScalarSet {
    /// The one scalar value of a one-scalar set, for the ends of a range.
    var single: UInt32? {
        ranges.count == 1 && ranges[0].lowerBound == ranges[0].upperBound ? ranges[0].lowerBound : nil
    }
}
