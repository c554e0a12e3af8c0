import Foundation
import MediaFixtures
import SheafCore
import TestSupport
import Testing

@Suite struct AttachmentTests {
    struct Listing: Decodable {
        struct Item: Decodable {
            let path: String, type: String, size: Int, width: Int?, height: Int?
            let thumbnailState: String, thumbnail: String?, error: String?, linkedFrom: [String]
        }
        let version: Int
        let attachments: [Item]
    }

    func listing(_ vault: String, _ extra: [String] = []) throws -> Listing {
        let r = CLI.run(["attachments", "--json"] + extra, in: vault)
        #expect(r.status == 0, "\(r.stderr)")
        return try JSONDecoder().decode(Listing.self, from: Data(r.stdout.utf8))
    }

    func fileSize(_ path: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? -1 }

    @Test func aPhonePhotoAPDFAndAnSVGAreAttachedWithDimensionsAndSmallThumbnails() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let note = "Trips/Lisbon/Tram 28.md"
        let before = CLI.read(vault + "/" + note)
        let r = CLI.run(["attach", note, Fixtures.path("phone.jpg"), Fixtures.path("paper.pdf"), Fixtures.path("drawing.svg")],
                        in: vault)
        #expect(r.status == 0, "\(r.stderr)")
        // The note uses wiki-links, so the embeds are wiki embeds, appended after the old text.
        #expect(CLI.read(vault + "/" + note) == before + "![[phone.jpg]]\n![[paper.pdf]]\n![[drawing.svg]]\n")
        let items = Dictionary(uniqueKeysWithValues: try listing(vault).attachments.map { ($0.path, $0) })
        for (name, width, height) in [("phone.jpg", 3000, 4000), ("paper.pdf", 595, 842), ("drawing.svg", 400, 300)] {
            let item = try #require(items["Trips/Lisbon/" + name])
            #expect(item.width == width && item.height == height, "\(name)")
            #expect(item.linkedFrom == [note])
            #expect(item.thumbnailState == "ready")
            let thumb = try #require(item.thumbnail)
            #expect(thumb.hasPrefix(vault + "/.sheaf/thumbnails/"))
            #expect(fileSize(thumb) > 0 && fileSize(thumb) < 30_000, "\(name): \(fileSize(thumb)) bytes")
            #expect(FileManager.default.contents(atPath: vault + "/Trips/Lisbon/" + name)
                    == FileManager.default.contents(atPath: Fixtures.path(name)))
        }
        // Thumbnails never reach git: .sheaf/ is excluded, so git sees only the copied files.
        let status = CLI.sh("git status --porcelain --untracked-files=all", in: vault)
        #expect(status.stdout.contains("Trips/Lisbon/phone.jpg"))
        #expect(!status.stdout.contains(".sheaf"))
    }

    @Test func aNameClashGetsANumberAndNeverOverwrites() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let note = "Trips/Lisbon/Tram 28.md"
        let existing = vault + "/Trips/Lisbon/tram-28.png"
        let original = FileManager.default.contents(atPath: existing)
        let other = temp.path + "/tram-28.png"
        try FileManager.default.copyItem(atPath: Fixtures.path("photo.png"), toPath: other)
        #expect(CLI.run(["attach", note, other], in: vault).status == 0)
        #expect(CLI.run(["attach", note, other], in: vault).status == 0)
        #expect(FileManager.default.contents(atPath: existing) == original)
        #expect(FileManager.default.contents(atPath: vault + "/Trips/Lisbon/tram-28 2.png") == FileManager.default.contents(atPath: other))
        #expect(FileManager.default.fileExists(atPath: vault + "/Trips/Lisbon/tram-28 3.png"))
        #expect(CLI.read(vault + "/" + note).hasSuffix("![[tram-28 2.png]]\n![[tram-28 3.png]]\n"))
        // Same content, one thumbnail.
        let items = try listing(vault).attachments.filter { $0.path.hasPrefix("Trips/Lisbon/tram-28 ") }
        #expect(items.count == 2 && items[0].thumbnail != nil && items[0].thumbnail == items[1].thumbnail)
    }

    @Test func aNoteWithMarkdownLinksGetsAMarkdownEmbedInItsLineEndings() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        // Without Obsidian's settings (.obsidian/app.json names a link style), the note's own style.
        try FileManager.default.removeItem(atPath: vault + "/.obsidian/app.json")
        CLI.write("# Shed\r\n\r\nSee [the plan](plan.md) and ![old](old.png)\r\nNo newline at the end", to: vault + "/Projects/Shed.md")
        let photo = temp.path + "/my shed.jpg"
        try FileManager.default.copyItem(atPath: Fixtures.path("photo.jpg"), toPath: photo)
        let r = CLI.run(["attach", "Projects/Shed.md", photo], in: vault)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(CLI.read(vault + "/Projects/Shed.md")
                == "# Shed\r\n\r\nSee [the plan](plan.md) and ![old](old.png)\r\nNo newline at the end\r\n![](my%20shed.jpg)\r\n")
        #expect(try listing(vault).attachments.first { $0.path == "Projects/my shed.jpg" }?.linkedFrom == ["Projects/Shed.md"])
    }

    @Test(arguments: [
        ("truncated.jpg", "damaged or truncated"), ("huge.png", "absurd size"), ("empty.jpg", "not an image"),
        ("text.jpg", "not an image"),
    ])
    func thumbOfABadFileSaysWhyAndExits2(_ name: String, _ message: String) throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        try FileManager.default.copyItem(atPath: Fixtures.path(name), toPath: vault + "/Inbox/" + name)
        let r = CLI.run(["thumb", "Inbox/" + name], in: vault)
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("sheaf: no thumbnail: Inbox/\(name)") && r.stderr.contains(message), "\(r.stderr)")
        let item = try #require(try listing(vault).attachments.first { $0.path == "Inbox/" + name })
        #expect(item.thumbnailState == "failed" && item.error?.contains(message) == true)
        // Other attachments are unaffected, and the index run goes on past the bad file.
        let index = CLI.run(["index"], in: vault)
        #expect(index.status == 0, "\(index.stderr)")
    }

    @Test func thumbPrintsTheThumbnailPathAndReadCommandsOnlyRecord() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        try FileManager.default.copyItem(atPath: Fixtures.path("photo.webp"), toPath: vault + "/Inbox/photo.webp")
        // A read command records the new file but makes no thumbnail.
        let pending = try #require(try listing(vault, ["--orphans"]).attachments.first { $0.path == "Inbox/photo.webp" })
        #expect(pending.thumbnailState == "pending" && pending.thumbnail == nil)
        let r = CLI.run(["thumb", "photo.webp"], in: vault + "/Inbox")
        #expect(r.status == 0, "\(r.stderr)")
        let path = r.stdout.trimmingCharacters(in: .newlines)
        #expect(path.hasPrefix(vault + "/.sheaf/thumbnails/") && FileManager.default.fileExists(atPath: path))
        // Deleted thumbnails come back.
        try FileManager.default.removeItem(atPath: path)
        #expect(CLI.run(["thumb", "Inbox/photo.webp"], in: vault).stdout == r.stdout)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func orphansAreListedAndGCDropsUnusedThumbnails() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        #expect(CLI.run(["index"], in: vault).status == 0)
        // Every sample image is linked from a note.
        #expect(CLI.run(["attachments", "--orphans"], in: vault).status == 1)
        try FileManager.default.copyItem(atPath: Fixtures.path("photo.gif"), toPath: vault + "/Inbox/loose.gif")
        let orphans = CLI.run(["attachments", "--orphans"], in: vault)
        #expect(orphans.status == 0 && orphans.stdout.hasPrefix("Inbox/loose.gif  image/gif"), "\(orphans.stdout)")
        let thumb = CLI.run(["thumb", "Inbox/loose.gif"], in: vault).stdout.trimmingCharacters(in: .newlines)
        let kept = try listing(vault).attachments.compactMap(\.thumbnail).filter { $0 != thumb }
        #expect(kept.count >= 5)
        try FileManager.default.removeItem(atPath: vault + "/Inbox/loose.gif")
        let gc = CLI.run(["gc"], in: vault)
        #expect(gc.status == 0 && gc.stdout.hasPrefix("removed 1 thumbnails"), "\(gc.stdout)")
        #expect(!FileManager.default.fileExists(atPath: thumb))
        #expect(kept.allSatisfy { FileManager.default.fileExists(atPath: $0) })
    }

    @Test func indexMakesThumbnailsOfNewAndChangedAttachmentsOnlyAndARenameReusesOne() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let first = CLI.run(["index"], in: vault)
        #expect(first.status == 0 && first.stdout.contains("thumbnails: 5 made, 0 reused, 0 failed"), "\(first.stdout)")
        #expect(!CLI.run(["index"], in: vault).stdout.contains("thumbnails:"))
        try FileManager.default.moveItem(atPath: vault + "/Trips/Lisbon/tram-28.png", toPath: vault + "/Trips/tram.png")
        try FileManager.default.copyItem(atPath: Fixtures.path("photo.tif"), toPath: vault + "/Trips/scan.tif")
        let again = CLI.run(["index"], in: vault)
        #expect(again.stdout.contains("thumbnails: 1 made, 1 reused, 0 failed"), "\(again.stdout)")
        let thumbnails = try FileManager.default.contentsOfDirectory(atPath: vault + "/.sheaf/thumbnails")
        #expect(thumbnails.count == 6 && thumbnails.allSatisfy { $0.hasSuffix("-256.jpg") })
    }

    @Test func aSymlinkIsAttachedAsTheFileItPointsToUnderItsOwnName() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        try FileManager.default.createSymbolicLink(atPath: temp.path + "/latest.jpg", withDestinationPath: Fixtures.path("photo.jpg"))
        #expect(CLI.run(["attach", "Tram 28", temp.path + "/latest.jpg"], in: vault).status == 0)
        let copied = vault + "/Trips/Lisbon/latest.jpg"
        #expect((try FileManager.default.attributesOfItem(atPath: copied)[.type] as? FileAttributeType) == .typeRegular)
        #expect(FileManager.default.contents(atPath: copied) == FileManager.default.contents(atPath: Fixtures.path("photo.jpg")))
    }

    @Test func attachRefusesFoldersAndMissingFilesBeforeChangingAnything() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let before = CLI.snapshot(vault)
        let r = CLI.run(["attach", "Trips/Lisbon/Tram 28.md", Fixtures.path("photo.jpg"), temp.path + "/nothing.jpg"], in: vault)
        #expect(r.status == 2)
        #expect(r.stderr.contains("sheaf: no such file: \(temp.path)/nothing.jpg"), "\(r.stderr)")
        #expect(CLI.snapshot(vault) == before)
    }

    @Test func aLargePNGIsThumbnailedInBoundedMemory() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        // 8000 x 6000 RGB: 144 MB if decoded whole; PNG has no shrink-on-load, so this checks streaming.
        Fixtures.vips("black", vault + "/Inbox/large.png", "8000", "6000", "--bands", "3")
        let r = CLI.sh("/usr/bin/time -f 'maxrss=%M' \"$SHEAF\" thumb Inbox/large.png", in: vault)
        #expect(r.status == 0, "\(r.stderr)")
        let kilobytes = try #require(r.stderr.split(separator: "\n").last { $0.hasPrefix("maxrss=") }.flatMap { Int($0.dropFirst(7)) })
        #expect(kilobytes < 120_000, "peak RSS \(kilobytes) KB")
    }
}
