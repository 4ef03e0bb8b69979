/// What `wf.app { ... }` declared: the app's name, what it shows at launch, and how its
/// navigation state persists.
public struct AppConfig: Sendable, Equatable {
    public enum Persistence: String, Sendable {
        case none, top, all
    }

    public var name: String?
    public var tabs: [String]
    public var root: String?
    public var persistence: Persistence
    /// Seconds after which saved state is not restored; 0 means never.
    public var expiration: Double

    public init(name: String? = nil, tabs: [String] = [], root: String? = nil, persistence: Persistence = .none, expiration: Double = 0) {
        self.name = name
        self.tabs = tabs
        self.root = root
        self.persistence = persistence
        self.expiration = expiration
    }
}
