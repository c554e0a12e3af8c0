// Issue 13: two devices append to today's daily note and sync. git calls both insertions at the
// end of the file a conflict; Sheaf keeps both, the syncing device's lines first, with no
// conflict file, and the replicas converge.
import Foundation
import Testing

@Suite(.serialized) struct JournalSyncTests {
    @Test func twoClonesAppendingToTodaysDailyNoteSyncWithoutAConflict() {
        let r = Replicas(2, samples: false)
        let daily = "Daily/2026-05-02.md"
        let template = "---\ntitle: 2026-05-02\ntags: [daily]\n---\n# Saturday 2 May\n\n## Log\n"
        r.write(0, daily, template + "- 07:10 woke up\n")
        #expect(r.sync(0).status == 0)
        #expect(r.sync(1).status == 0)
        #expect(r.file(1, daily) == template + "- 07:10 woke up\n")

        #expect(CLI.run(["append", daily, "--", "- 08:00 phone: run by the river"], in: r[0]).status == 0)
        let appended = CLI.run(["append", daily, "--", "- 08:05 laptop: coffee"], in: r[1])
        #expect(appended.status == 0, "\(appended.stderr)")
        #expect(CLI.run(["append", daily, "--", "- 09:00 laptop: standup"], in: r[1]).status == 0)
        #expect(r.sync(0).status == 0)
        let merged = r.sync(1)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(r.sync(0).status == 0)

        let expected = template + "- 07:10 woke up\n- 08:05 laptop: coffee\n- 09:00 laptop: standup\n"
            + "- 08:00 phone: run by the river\n"
        #expect(r.file(1, daily) == expected)
        #expect(r.conflictFiles(0).isEmpty && r.conflictFiles(1).isEmpty)
        #expect(r.identical(0, 1), "\(r.differences(0, 1))")
        #expect(!hasConflictMarkers(r.file(0, daily)))
    }

    @Test func twoClonesMakingTheSameDailyNoteFromATemplateSyncWithoutAConflict() {
        let r = Replicas(2, samples: false)
        let daily = "Daily/2026-05-03.md"
        let template = "---\ntitle: 2026-05-03\ntags: [daily]\n---\n# Sunday 3 May\n\n## Log\n"
        r.write(0, daily, template + "- phone: market\n")
        r.write(1, daily, template + "- laptop: backups\n")
        #expect(r.sync(0).status == 0)
        #expect(r.sync(1).status == 0)
        #expect(r.sync(0).status == 0)
        #expect(r.file(0, daily) == template + "- laptop: backups\n- phone: market\n")
        #expect(r.conflictFiles(0).isEmpty && r.conflictFiles(1).isEmpty)
        #expect(r.identical(0, 1), "\(r.differences(0, 1))")
    }
}
