// The search command line read without ArgumentParser (SearchRequest) means what ArgumentParser
// reads in it, and leaves to it whatever it does not read plainly.
@testable import SheafCLI
import Testing

@Suite struct SearchRequestTests {
    /// Random search command lines, as typed: each one the direct reading takes is one
    /// ArgumentParser parses as `search`, to the same request; the others it leaves alone.
    @Test func aSearchLineReadWithoutArgumentParserMeansWhatArgumentParserReads() throws {
        let pieces = ["-n", "5", "07", "-3", "--limit", "--limit=3", "--limit=x", "--limit=", "-n=4", "--paths", "--json", "-0",
                      "--null", "-q", "--quiet", "-v", "--verbose", "--vault", "/tmp/v", "--vault=/x", "--color", "always",
                      "never", "bogus", "--color=never", "--no-pager", "--paths=1", "word", "-word", "café", "--", "-h", "--help",
                      "", "-", "-n5", "tag:x", "\"a phrase\""]
        let globals = [["--vault", "/tmp/w"], ["--vault=/y"], ["-q"], ["--verbose"], ["--color", "always"], ["--color=bogus"],
                       ["--no-pager"], ["-v"], ["--vault"]]
        var generator = SystemRandomNumberGenerator()
        var direct = 0, left = 0
        for _ in 0..<2000 {
            // Global options may come before the command too (CommandNames.hoistingGlobalOptions).
            let before = (0..<Int.random(in: 0...2, using: &generator)).flatMap { _ in globals.randomElement(using: &generator)! }
            let typed = before + ["search"] + (0..<Int.random(in: 0...7, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
            guard let sorted = try? CommandNames.searchArguments(CommandNames.hoistingGlobalOptions(typed)) else { continue }
            guard let request = SearchRequest(sorted: sorted) else { left += 1; continue }
            direct += 1
            let parsed = try #require(try? Sheaf.parse(sorted) as? Search, "\(typed)")
            #expect(parsed.request == request, "\(typed)")
        }
        // Both kinds were met.
        #expect(direct > 50 && left > 50, "\(direct) read directly, \(left) left to ArgumentParser")
    }

    @Test func aPlainSearchIsReadDirectly() throws {
        let request = try #require(SearchRequest(sorted: try CommandNames.searchArguments(["search", "-n", "3", "--paths", "run", "-x"])))
        #expect(request == SearchRequest(words: ["run", "-x"], limit: 3, paths: true, json: false, null: false, global: GlobalSettings()))
        #expect(SearchRequest(sorted: try CommandNames.searchArguments(["search", "--help"])) == nil)
        #expect(SearchRequest(sorted: try CommandNames.searchArguments(["search", "-n", "2", "-n", "3", "run"])) == nil)
    }
}
