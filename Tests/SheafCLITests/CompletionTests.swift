// Shell completion of note names, folders, tags and templates, through the scripts
// `sheaf --generate-completion-script` writes, in the real shells: bash by its completion
// function, zsh and fish interactive on a pseudo-terminal (zsh's zpty module), TAB pressed.
// A vault whose names hold `$(...)`, backquotes, `;`, quotes, globs, colons, backslashes,
// newlines, tabs, ESC and leading dashes completes each as inert text: no command in a name
// runs, and the word the shell puts on the command line reads back as the name.
import Foundation
import Testing
import TestSupport

@Suite struct CompletionTests {
    /// Runs the bash completion of `line` (cursor at its end) in `vault`; COMPREPLY. The script
    /// is written once per `home` (making it costs more than a completion).
    static func bash(_ line: String, in vault: String, home: String) -> [String] {
        let script = """
        [ -f "$HOME/sheaf.bash" ] || sheaf --generate-completion-script bash > "$HOME/sheaf.bash"
        source "$HOME/sheaf.bash"
        complete -p sheaf >/dev/null || exit 3
        COMP_LINE="$LINE"; COMP_POINT=${#COMP_LINE}
        read -r -a COMP_WORDS <<< "$LINE"
        [[ "$LINE" == *" " ]] && COMP_WORDS+=("")
        COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
        _sheaf sheaf "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
        printf '%s\\0' "${COMPREPLY[@]}"
        """
        let r = runProcess("/bin/bash", ["-c", script], in: vault, environment: ["LINE": line, "HOME": home, "PATH": path])
        return r.stdout.split(separator: "\0").map(String.init)
    }

    /// Types each line into an interactive zsh or fish on a pseudo-terminal, presses TAB, then
    /// ^X, bound to write the line's last word as that shell reads it (quotes and escapes
    /// removed); those words, one per line typed.
    static func interactive(_ shell: String, _ lines: [String], in vault: String, home: String) -> [String] {
        let out = home + "/words-" + shell
        let driver = #"""
        zmodload zsh/zpty
        : > $OUT
        if [[ $CHILD == zsh ]]; then
          zpty shell zsh -f -i
          zpty -w shell 'autoload -Uz compinit && compinit -u -D'
          zpty -w shell 'source <(sheaf --generate-completion-script zsh)'
          zpty -w shell 'dump() { print -r -- "${(Q)${(z)BUFFER}[-1]}" >> $OUT; BUFFER= }; zle -N dump; bindkey "^X" dump'
        else
          zpty shell fish --no-config -i
          zpty -w shell 'sheaf --generate-completion-script fish | source'
          zpty -w shell 'function dump; set -l words (commandline -o); printf "%s\n" $words[-1] >> $OUT; commandline ""; end; bind \cx dump'
        fi
        n=0
        while IFS= read -r line; do
          zpty -w -n shell "$line"$'\t\C-x'
          (( n++ ))
          for i in {1..400}; do
            (( $(wc -l < $OUT) >= n )) && break
            sleep 0.05
          done
        done
        zpty -d shell
        """#
        let r = runProcess("/usr/bin/zsh", ["-f", "-c", driver], in: vault, stdin: lines.map { $0 + "\n" }.joined(),
                           environment: ["OUT": out, "CHILD": shell, "HOME": home, "PATH": path, "TERM": "xterm"])
        #expect(r.status == 0, "\(r.stderr)")
        return CLI.read(out).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    static let path = (CLI.binary as NSString).deletingLastPathComponent + ":/usr/bin:/bin"

    /// Notes whose titles and paths hold what shells act on.
    static let notes: [(path: String, title: String)] = [
        ("clip.md", "Clipped $(touch PWNED)"),
        ("hub.md", "Hub `touch PWNED` hub"),
        ("semi.md", "Semi; touch PWNED; x"),
        ("quotes.md", #"Quotes 'single' "double" \back"#),
        ("glob.md", "Glob * ? [a] {a,b} ~ $HOME"),
        ("colon.md", #"Colon: a:b \:c"#),
        ("newline.md", "New\nline\u{1B}]0;pwned\u{07} $(touch PWNED)"),
        ("tab.md", "Tab\there"),
        ("dash.md", "-rf dash"),
        ("Dir $(touch PWNED)/inner.md", "Inner"),
        ("Pa'th `touch PWNED`.md", "Plain"),
        ("Line\nbreak.md", "Line file"),
        ("Templates/Tpl $(touch PWNED).md", "Template one"),
        // A quote then a combining mark: one Character, which a Character-wise replacement of
        // `'` passed over, ending the single-quoted word early (the regression of 2026-12-04).
        ("acute.md", "Acute'\u{301} $(touch PWNED) '"),
    ]
    static let tags = ["t$(touch PWNED)", "q'uote", "-dash", "b`id`"]

    /// A vault holding `notes` (the first with `tags`), indexed.
    static func hostileVault(_ temp: TempDir) -> String {
        let vault = temp.path + "/vault"
        for (i, note) in notes.enumerated() {
            let tagLine = i == 0 ? "tags: [" + tags.map(yamlQuoted).joined(separator: ", ") + "]\n" : ""
            CLI.write("---\ntitle: \(yamlQuoted(note.title))\n\(tagLine)---\nbody\n", to: vault + "/" + note.path)
        }
        #expect(CLI.run(["init"], in: vault).status == 0)
        #expect(CLI.run(["index"], in: vault).status == 0)
        try? FileManager.default.createDirectory(atPath: temp.path + "/home", withIntermediateDirectories: true)
        return vault
    }

    /// A YAML double-quoted scalar.
    static func yamlQuoted(_ s: String) -> String {
        "\"" + s.unicodeScalars.map { c -> String in
            switch c {
            case "\\": return "\\\\"
            case "\"": return "\\\""
            case "\n": return "\\n"
            case "\t": return "\\t"
            case "\u{1B}": return "\\e"
            case "\u{07}": return "\\a"
            default: return String(c)
            }
        }.joined() + "\""
    }

    /// A name as completion offers it: control characters removed.
    static func offered(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
    }

    /// Lines typed, each ending in a prefix that one candidate alone starts with (in its case),
    /// with the word each shell must put on the command line: that candidate.
    static let typed: [(line: String, word: String)] = {
        let names = notes.flatMap { [offered($0.title), offered(String($0.path.dropLast(3)))] }
        let asked: [(command: String, prefixes: [String], candidates: [String])] = [
            ("sheaf show", ["Clip", "Hub", "Semi", "Quotes", "Glob", "Colon", "New", "Tab", "-r", "Dir", "Pa", "Lineb", "Acute"], names),
            ("sheaf ls --folder", ["D"], ["Dir $(touch PWNED)", "Templates"]),
            ("sheaf ls --tag", ["t", "q", "b"], tags),
            ("sheaf new x --template", ["T"], ["Tpl $(touch PWNED)"]),
        ]
        return asked.flatMap { command, prefixes, candidates in
            prefixes.map { prefix in
                let matching = candidates.filter { $0.hasPrefix(prefix) }
                precondition(matching.count == 1, "\(prefix): \(matching)")
                return (command + " " + prefix, matching[0])
            }
        }
    }()

    /// Files a name's command would have made, anywhere the shells ran.
    static func pwned(_ temp: TempDir) -> [String] {
        (FileManager.default.subpaths(atPath: temp.path) ?? []).filter { $0.contains("PWNED") && !$0.contains("$") && !$0.contains("`") }
    }

    @Test func noteNamesFoldersAndTagsCompleteInBash() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        _ = CLI.run(["index"], in: vault)
        let notes = Self.bash("sheaf show Trips/Lis", in: vault, home: temp.path)
        #expect(notes.contains("Trips/Lisbon/Tram 28"), "\(notes)")
        #expect(!notes.contains { $0.hasPrefix("Work/") })
        let titles = Self.bash("sheaf backlinks Lisbon", in: vault, home: temp.path)
        #expect(titles.contains { $0.hasPrefix("Lisbon") }, "\(titles)")
        let folders = Self.bash("sheaf ls --folder Tri", in: vault, home: temp.path)
        #expect(folders.contains("Trips") && folders.contains("Trips/Lisbon"), "\(folders)")
        let tags = Self.bash("sheaf ls --tag tra", in: vault, home: temp.path)
        #expect(tags.contains("travel"), "\(tags)")
        let commands = Self.bash("sheaf sea", in: vault, home: temp.path)
        #expect(commands.contains("search"), "\(commands)")
    }

    /// Issue 23, item 15: `sheaf --vault V show Can<TAB>` (a global option before the command)
    /// completed nothing, and `can` did not offer `Canvas`: the shells keep only candidates that
    /// start with what was typed, letter case included.
    @Test func completionFollowsAGlobalOptionAndIgnoresCase() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        _ = CLI.run(["index"], in: vault)
        let elsewhere = temp.path + "/elsewhere"
        try? FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let global = Self.bash("sheaf --vault \(vault) show Trips/Lis", in: elsewhere, home: temp.path)
        #expect(global.contains("Trips/Lisbon/Tram 28"), "\(global)")
        let lower = Self.bash("sheaf show trips/lisbon/tr", in: vault, home: temp.path)
        #expect(lower == ["trips/lisbon/tram 28"], "\(lower)")
        // What the shell puts on the line names the note.
        #expect(CLI.run(["show", "trips/lisbon/tram 28"], in: vault).stdout.contains("Lisbon: tram 28"))
        let title = Self.bash("sheaf show temp", in: vault, home: temp.path)
        #expect(title.contains("temples"), "\(title)")
        #expect(CLI.run(["show", "temples"], in: vault).status == 0)
        // Where some candidate starts with the word as typed, only those are offered.
        #expect(Self.bash("sheaf show Temp", in: vault, home: temp.path).contains("Temples"))
    }

    /// The bug: bash's `compgen -W` expanded each candidate, so `sheaf show <TAB>` ran the
    /// `$(touch PWNED)` of a clipped title and the backquotes of another.
    @Test func bashCompletionRunsNoCommandSubstitutionInNamesAndOffersThemLiterally() {
        let temp = TempDir()
        let vault = Self.hostileVault(temp)
        let home = temp.path + "/home"
        let all = Set(Self.notes.flatMap { [Self.offered($0.title), Self.offered(String($0.path.dropLast(3)))] })
        #expect(Set(Self.bash("sheaf show ", in: vault, home: home)) == all)
        #expect(Self.bash("sheaf ls --folder ", in: vault, home: home) == ["Dir $(touch PWNED)", "Templates"])
        #expect(Set(Self.bash("sheaf ls --tag ", in: vault, home: home)) == Set(Self.tags))
        #expect(Self.bash("sheaf new x --template ", in: vault, home: home) == ["Tpl $(touch PWNED)"])
        for (line, word) in Self.typed where !line.hasSuffix(" -r") {
            #expect(Self.bash(line, in: vault, home: home) == [word], "\(line)")
        }
        #expect(Self.pwned(temp).isEmpty, "\(Self.pwned(temp))")
    }

    /// The bugs: zsh's `_describe` read a `:` in a candidate as the start of its description and
    /// took backslashes as escapes, so `Colon: a:b \:c` was put on the line as `Colon`; in fish
    /// a newline in a title made two candidates of it and a tab made the rest a description.
    @Test(arguments: ["zsh", "fish"])
    func zshAndFishCompletionPutEachHostileNameOnTheLineWhole(shell: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/" + shell), "scripts/setup installs \(shell)")
        let temp = TempDir()
        let vault = Self.hostileVault(temp)
        let words = Self.interactive(shell, Self.typed.map(\.line), in: vault, home: temp.path + "/home")
        #expect(words == Self.typed.map(\.word))
        #expect(Self.pwned(temp).isEmpty, "\(Self.pwned(temp))")
    }
}
