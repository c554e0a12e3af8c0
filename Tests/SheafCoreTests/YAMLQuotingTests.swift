import Foundation
import Testing
import Yams
@testable import SheafCore

/// A string Sheaf writes into front-matter reads back as that string.
@Suite struct YAMLQuotingTests {
    /// Regression, "a combining mark after YAML syntax hid the syntax from the quoting rule": `"`,
    /// `#`, `&`, `[` or a space with a combining mark after it is a Character that is none of
    /// them, so `"́x`, `a #́b` or `a: ́b` were written plain, and YAML read a quoted string, a
    /// comment or a mapping. Each is quoted now, and reads back as itself, in a block value and
    /// in a flow sequence.
    static let values = ["\"\u{301}x", "#\u{301}x", "a #\u{301}b", "a: \u{301}b", "&\u{301}x", "*\u{301}x", "[\u{301}a",
                         "'\u{301}x", "|\u{301}x", "a,\u{301}b", "{\u{301}}", "plain", "Café", "e\u{301}t\u{301}e\u{301}"]

    @Test(arguments: values)
    func aValueWithCombiningMarksReadsBackAsItself(_ value: String) throws {
        let block = try Yams.load(yaml: "key: " + YAMLScalar.render(value) + "\n") as? [String: Any]
        #expect(block?["key"] as? String == value, "\(YAMLScalar.render(value))")
        let flow = try Yams.load(yaml: "key: [" + YAMLScalar.render(value, inFlow: true) + ", other]\n") as? [String: Any]
        #expect(flow?["key"] as? [String] == [value, "other"], "\(YAMLScalar.render(value, inFlow: true))")
    }
}
