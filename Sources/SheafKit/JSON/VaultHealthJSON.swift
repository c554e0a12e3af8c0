// The JSON documents about the vault's files beside its notes: `attachments` and `doctor`
// (docs/json.md).
import Foundation
import SheafCore

public struct AttachmentJSON: Codable, Sendable {
    public var path: String
    public var type: String
    public var size: Int
    public var width: Int?
    public var height: Int?
    public var hash: String?
    /// pending, ready, failed or none (not a format Sheaf thumbnails).
    public var thumbnailState: String
    /// Absolute path of the thumbnail, absent when there is none.
    public var thumbnail: String?
    public var error: String?
    public var linkedFrom: [String]

    public init(_ a: Attachment) {
        let r = a.record
        path = r.path; type = r.type; size = r.size; width = r.width; height = r.height; hash = r.hash
        thumbnailState = r.state.rawValue; thumbnail = a.thumbnail; error = r.error; linkedFrom = a.linkedFrom
    }
}

/// `sheaf attachments [--orphans] --json`.
public struct AttachmentListJSON: Codable, Sendable {
    public var version = VaultJSON.version
    public var attachments: [AttachmentJSON]
    public init(_ list: [Attachment]) { attachments = list.map(AttachmentJSON.init) }
}

public struct DoctorFindingJSON: Codable, Sendable {
    public var kind: String
    public var path: String
    public var line: Int?
    public var message: String
    public var fix: String
    public var commit: String?
    public var fixed: Bool

    public init(_ f: DoctorFinding) {
        kind = f.kind.rawValue; path = f.path; line = f.line; message = f.message; fix = f.fix; commit = f.commit; fixed = f.fixed
    }
}

/// `sheaf doctor --json`.
public struct DoctorJSON: Codable, Sendable {
    public var version = VaultJSON.version
    public var findings: [DoctorFindingJSON]
    public init(_ findings: [DoctorFinding]) { self.findings = findings.map(DoctorFindingJSON.init) }
}
