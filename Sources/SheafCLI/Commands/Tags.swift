import ArgumentParser
import SheafKit

struct Tags: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "tags",
        abstract: "List tags with counts, or add and remove a note's tags.",
        subcommands: [ListTags.self, Add.self, RemoveTags.self],
        defaultSubcommand: ListTags.self)

    struct ListTags: ParsableCommand {
        static let configuration = CommandConfiguration.sheaf(commandName: "list", abstract: "Every tag with its number of notes.")
        @Flag(help: "Print JSON.") var json = false
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let session = try global.open()
            let counts = try session.tagCounts()
            try reportWarnings(session)
            if json {
                Terminal.json(TagListJSON(counts))
                return
            }
            let width = counts.map { String($0.count).count }.max() ?? 1
            Terminal.page()
            for c in counts {
                let n = String(c.count)
                Terminal.out("\(String(repeating: " ", count: width - n.count))\(n)  \(c.tag)")
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration.sheaf(
            commandName: "add",
            abstract: "Add tags to a note's front-matter, in the style its tags list already uses.")
        @Argument(help: "The note.", completion: Completions.notes) var note: String
        @Argument(help: "Tags to add.", completion: Completions.tags) var tags: [String]
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let session = try global.open()
            let r = try session.addTags(tags, to: try session.resolve(note))
            if !r.changed.isEmpty { Terminal.out("\(r.path): added \(names: r.changed)") }
            let already = r.unchanged + r.inline
            if !already.isEmpty { Terminal.out("\(r.path): already tagged \(names: already)") }
        }
    }

    struct RemoveTags: ParsableCommand {
        static let configuration = CommandConfiguration.sheaf(
            commandName: "remove",
            abstract: "Remove tags from a note's front-matter.",
            discussion: "Inline #tags in the body are left alone: edit the note to remove them.")
        @Argument(help: "The note.", completion: Completions.notes) var note: String
        @Argument(help: "Tags to remove.", completion: Completions.tags) var tags: [String]
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let session = try global.open()
            let r = try session.removeTags(tags, from: try session.resolve(note))
            if !r.changed.isEmpty { Terminal.out("\(r.path): removed \(names: r.changed)") }
            for t in r.inline { Terminal.warn("\(r.path): #\(t) is written in the body; edit the note to remove it") }
            if !r.unchanged.isEmpty { Terminal.out("\(r.path): not tagged \(names: r.unchanged)") }
        }
    }
}
