// The command line `sheaf merge-file` takes, read without ArgumentParser (its reflection was a
// third of a small merge's time): three paths and the options git's merge driver and scripts
// use. Anything else (help, a global option, an option this does not know) is nil: `sheaf`
// reads it.

struct MergeFileRequest {
    var base = "", ours = "", theirs = ""
    var output: String? = nil
    var conflictOut: String? = nil
    var driverPath: String? = nil

    init?(arguments: [String]) {
        var paths: [String] = []
        var i = 0
        // An option's value as ArgumentParser takes it: `--name=value` with a value, or the next
        // argument unless it looks like an option ("-" alone is a value).
        func value(of option: String) -> String? {
            let argument = arguments[i]
            if argument.hasPrefix(option + "=") {
                let value = String(argument.dropFirst(option.count + 1))
                return value.isEmpty ? nil : value
            }
            guard argument == option, i + 1 < arguments.count else { return nil }
            let next = arguments[i + 1]
            guard next == "-" || !next.hasPrefix("-") else { return nil }
            i += 1
            return next
        }
        while i < arguments.count {
            let argument = arguments[i]
            if !argument.hasPrefix("-") || argument == "-" {
                paths.append(argument)
            } else if argument.hasPrefix("--conflict-out"), let v = value(of: "--conflict-out"), conflictOut == nil {
                conflictOut = v
            } else if argument.hasPrefix("--driver-path"), let v = value(of: "--driver-path"), driverPath == nil {
                driverPath = v
            } else if argument == "-o", let v = value(of: "-o"), output == nil {
                output = v
            } else {
                return nil
            }
            i += 1
        }
        guard paths.count == 3, !paths.contains(where: \.isEmpty) else { return nil }
        (base, ours, theirs) = (paths[0], paths[1], paths[2])
    }
}
