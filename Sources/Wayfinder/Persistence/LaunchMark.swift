import OrderedCollections

/// The mark of launches under way with a saved state (docs/persistence.md, "A state that stops
/// every launch"): written before any of the state is restored, removed once the app shows its
/// first screen. A mark found at launch means the launches it counts never got there; after
/// `limit` of them in a row the state is set aside and the app starts fresh.
public struct LaunchMark: Equatable, Sendable {
    /// The `format` field that identifies a launch mark file.
    public static let format = "wayfinder.launch"
    /// Launches in a row that may fail before the next one sets the state aside.
    public static let limit = 2

    /// Launches in a row that started with the state and have not shown a first screen, the one
    /// under way included.
    public var launches: Int
    /// The entry the launch was restoring: the saved state's visible URL.
    public var url: String?
    /// Why the last launch failed, when it failed with an error rather than ending the process.
    public var error: String?
    /// The process of the launch that wrote the mark. While it runs, the mark is its launch under
    /// way, not one that ended before its first screen.
    public var owner: ProcessIdentity?

    /// A mark of `launches` launches in a row that did not finish, the URL being opened, the error if one was
    /// seen, and the process that wrote it.
    public init(launches: Int, url: String?, error: String? = nil, owner: ProcessIdentity? = nil) {
        self.launches = launches
        self.url = url
        self.error = error
        self.owner = owner
    }

    /// Whether the mark is another process's launch that is still running (and so no failure).
    public var isAnotherRunningLaunch: Bool {
        guard let owner, owner.pid != ProcessIdentity.current.pid else { return false }
        return owner.isRunning
    }

    /// The mark as its file holds it, `format` first.
    public var document: Value {
        var fields: OrderedDictionary<String, Value> = ["format": .string(Self.format), "launches": .int(Int64(launches))]
        if let url { fields["url"] = .string(url) }
        if let error { fields["error"] = .string(error) }
        if let owner {
            fields["pid"] = .int(Int64(owner.pid))
            if let started = owner.started { fields["started"] = .int(started) }
        }
        return .map(fields)
    }

    /// The mark a document holds; nil when it is not one.
    public init?(document: Value) {
        guard document["format"] == .string(Self.format), case .int(let launches)? = document["launches"], launches >= 0,
              let count = Int(exactly: launches) else { return nil }
        self.launches = count
        switch document["url"] {
        case nil, .null?: url = nil
        case .string(let text)?: url = text
        default: return nil
        }
        switch document["error"] {
        case nil, .null?: error = nil
        case .string(let text)?: error = text
        default: return nil
        }
        switch (document["pid"], document["started"]) {
        case (nil, nil), (.null?, _):
            owner = nil
        case (.int(let pid)?, nil), (.int(let pid)?, .null?):
            guard let id = Int32(exactly: pid) else { return nil }
            owner = ProcessIdentity(pid: id, started: nil)
        case (.int(let pid)?, .int(let started)?):
            guard let id = Int32(exactly: pid) else { return nil }
            owner = ProcessIdentity(pid: id, started: started)
        default:
            return nil
        }
    }

    /// What the failed launches were doing, for the warning that sets the state aside.
    public var failure: String {
        let restoring = url.map { "restoring '\($0)'" } ?? "restoring it"
        return restoring + (error.map { ": the last one failed with \($0)" } ?? ": the last one ended before it got there")
    }
}
