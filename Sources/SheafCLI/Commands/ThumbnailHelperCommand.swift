// `sheaf thumbnail-helper`: hidden; `sheaf` runs itself with it to decode one image in a separate
// process under a memory cap (SheafMedia/ThumbnailHelper.swift). Not for people.
import ArgumentParser
import Foundation
import SheafKit
#if canImport(Glibc)
import Glibc
#endif

struct ThumbnailHelperCommand: ParsableCommand {
    static let name = "thumbnail-helper"
    static let configuration = CommandConfiguration(commandName: name, shouldDisplay: false)

    @Argument var source: String
    @Argument var output: String
    @Argument var longEdge: Int
    @Argument var quality: Int

    func run() throws {
        Glibc.exit(ThumbnailHelper.run(source: source, output: output, longEdge: longEdge, quality: quality))
    }

    /// Makes this executable the thumbnail helper of this process.
    static func enable() {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable = n > 0 ? String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                               : URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        ThumbnailHelper.enable(executable: executable, subcommand: name)
    }
}
