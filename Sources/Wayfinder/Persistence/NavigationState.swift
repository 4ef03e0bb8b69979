import Foundation
import OrderedCollections

/// The navigation tree as a document that outlives the app (docs/persistence.md): tabs and
/// the selection, every stack, the modals and the popover; for each entry its URL, the query an
/// action added when it is plain data, what the controller's `persist(state)` wrote, and its
/// context; the contexts' own plain values and how they chain; the open a guard keeps waiting;
/// when it was saved.
///
/// Versioned: a document (`NavigationState+Document.swift`) of another format or version fails
/// to read with `NavigationStateError`, never a crash, and `validate` rejects one whose parts do
/// not fit together (a selected tab that is not there, a context chained to a later one).
public struct NavigationState: Equatable, Sendable {
    /// The `format` field that identifies a navigation state document.
    public static let format = "wayfinder.navigation"
    /// The document version this library writes.
    public static let version = 1

    /// The app's name, when it gave one.
    public var app: String?
    /// The version of the app that saved it (`wf.app`'s `version`; 1 when the document has
    /// none), so a newer app can migrate it (docs/persistence.md, "Versions and migrations").
    public var appVersion: Int
    /// When the state was saved.
    public var savedAt: Date
    /// What of the tree was kept.
    public var mode: PersistenceMode
    /// The root: one stack, or tabs.
    public var root: Root
    /// The modals' stacks, bottom first.
    public var modals: [[Entry]]
    /// The popover, if one was open.
    public var popover: Entry?
    /// Every context some entry's chain reaches, each after the contexts it chains to.
    public var contexts: [Context]
    /// The open a guard stopped and keeps waiting (`Navigator.pendingOpen`), if any.
    public var pending: Pending?

    /// A saved root.
    public enum Root: Equatable, Sendable {
        /// One stack's entries, bottom first.
        case stack([Entry])
        /// Tabs, one stack each; `selected` counts from 0.
        case tabs([[Entry]], selected: Int)
    }

    /// One saved screen.
    public struct Entry: Equatable, Sendable {
        /// The URL it was opened with.
        public var url: String
        /// Query values an action added to the URL's own (plain data only).
        public var query: OrderedDictionary<String, Value>?
        /// What the controller's `persist(state)` wrote.
        public var state: Value?
        /// The entry's context: an index into `contexts`.
        public var context: Int?
        /// An important entry keeps the state from expiring.
        public var important: Bool
        /// A list's selected item and scroll anchor, by model identifier.
        public var model: ModelPosition?
        /// The title the screen showed when saved, so an entry restored but not made yet can be
        /// named by it rather than by its URL.
        public var title: String?

        /// A saved screen for `url` with what its controller kept.
        public init(url: String, query: OrderedDictionary<String, Value>? = nil, state: Value? = nil, context: Int? = nil,
                    important: Bool = false, model: ModelPosition? = nil, title: String? = nil) {
            self.url = url
            self.title = title
            self.query = query
            self.state = state
            self.context = context
            self.important = important
            self.model = model
        }

        /// Queries compare as Lua tables do, in any order.
        public static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.url == rhs.url && lhs.query.map(Value.map) == rhs.query.map(Value.map) && lhs.state == rhs.state
                && lhs.context == rhs.context && lhs.important == rhs.important && lhs.model == rhs.model && lhs.title == rhs.title
        }
    }

    /// UIDataSourceModelAssociation's idea: a list remembers its selected item and the first
    /// item in view by identifier, not by position, so a reordered list finds them again.
    public struct ModelPosition: Equatable, Sendable {
        /// The selected item's key, if any.
        public var selected: Value?
        /// The item the list was scrolled to, if any.
        public var anchor: Value?

        /// A position with the selection and anchor given.
        public init(selected: Value? = nil, anchor: Value? = nil) {
            self.selected = selected
            self.anchor = anchor
        }
    }

    /// One context layer: its name, typed fields, own values (a stored nil is `null`), and the
    /// layer it chains to.
    public struct Context: Equatable, Sendable {
        /// The context's name; nil for an anonymous one.
        public var name: String?
        /// The declared field types, if it declares any.
        public var fields: [String: ContextFieldType]?
        /// The values its fields held.
        public var values: OrderedDictionary<String, Value>
        /// An index into `contexts`, always a smaller one.
        public var inner: Int?
        /// This layer is the app's shared context: restoring fills the app's own layer rather
        /// than making a new one.
        public var isApp: Bool

        /// A saved context.
        public init(name: String? = nil, fields: [String: ContextFieldType]? = nil, values: OrderedDictionary<String, Value> = [:],
                    inner: Int? = nil, isApp: Bool = false) {
            self.name = name
            self.fields = fields
            self.values = values
            self.inner = inner
            self.isApp = isApp
        }

        /// Values compare as Lua tables do, in any order.
        public static func == (lhs: Context, rhs: Context) -> Bool {
            lhs.name == rhs.name && lhs.fields == rhs.fields && Value.map(lhs.values) == Value.map(rhs.values)
                && lhs.inner == rhs.inner && lhs.isApp == rhs.isApp
        }
    }

    /// A state document with the tree, contexts and pending open given.
    public init(app: String? = nil, appVersion: Int = 1, savedAt: Date = Date(), mode: PersistenceMode = .all, root: Root = .stack([]),
                modals: [[Entry]] = [], popover: Entry? = nil, contexts: [Context] = [], pending: Pending? = nil) {
        self.app = app
        self.appVersion = appVersion
        // The file keeps whole seconds; so does the document, so it compares equal once read back.
        self.savedAt = Date(timeIntervalSince1970: savedAt.timeIntervalSince1970.rounded(.down))
        self.mode = mode
        self.root = root
        self.modals = modals
        self.popover = popover
        self.contexts = contexts
        self.pending = pending
    }

    /// An open a guard stopped (`PendingOpen`), as it is saved: what the request carried that
    /// is plain data, and when it was stopped (to the second, as the document keeps it).
    public struct Pending: Equatable, Sendable {
        /// The URL to open.
        public var url: String
        /// The query it carried.
        public var query: OrderedDictionary<String, Value>?
        /// The parent it named.
        public var parent: String?
        /// The state it carried.
        public var state: Value?
        /// The presentation it asked for.
        public var presentation: Presentation?
        /// It came from outside the app: it opens as a link when its guard lets it through.
        public var fromOutside: Bool
        /// When it was first held.
        public var since: Date

        /// A saved pending open.
        public init(url: String, query: OrderedDictionary<String, Value>? = nil, parent: String? = nil, state: Value? = nil,
                    presentation: Presentation? = nil, fromOutside: Bool = false, since: Date) {
            self.url = url
            self.query = query
            self.parent = parent
            self.state = state
            self.presentation = presentation
            self.fromOutside = fromOutside
            self.since = Date(timeIntervalSince1970: since.timeIntervalSince1970.rounded(.down))
        }

        /// Queries compare as Lua tables do, in any order.
        public static func == (lhs: Pending, rhs: Pending) -> Bool {
            lhs.url == rhs.url && lhs.query.map(Value.map) == rhs.query.map(Value.map) && lhs.parent == rhs.parent
                && lhs.state == rhs.state && lhs.presentation == rhs.presentation && lhs.fromOutside == rhs.fromOutside
                && lhs.since == rhs.since
        }
    }

    /// Every entry, in tree order: the root's stacks, the modals, the popover.
    public var entries: [Entry] {
        var all: [Entry]
        switch root {
        case .stack(let stack): all = stack
        case .tabs(let tabs, _): all = tabs.flatMap { $0 }
        }
        all += modals.flatMap { $0 }
        if let popover { all.append(popover) }
        return all
    }

    /// Whether some entry marked itself important.
    public var hasImportantEntry: Bool { entries.contains { $0.important } }

    /// Whether the state is older than `expiration` seconds at `now` (0: it never expires). A
    /// state saved in the future (the clock went back since, or the file was written by hand)
    /// has no age that can be trusted, so it counts as expired rather than as never expiring.
    public func isExpired(expiration: Double, now: Date = Date()) -> Bool {
        guard expiration > 0 else { return false }
        let age = now.timeIntervalSince(savedAt)
        return age > expiration || age < 0
    }

    /// Whether the state may be restored: it has not expired, or some entry is important
    /// (Three20's rule: one important entry keeps the whole state).
    public func isRestorable(expiration: Double, now: Date = Date()) -> Bool {
        !isExpired(expiration: expiration, now: now) || hasImportantEntry
    }

    /// Checks that the parts fit together; the reason names the first that does not.
    public func validate() throws(NavigationStateError) {
        if case .tabs(let tabs, let selected) = root, !tabs.indices.contains(selected) {
            throw .invalid("selected tab \(TabNumber.number(of: selected)) of \(tabs.count)")
        }
        for (index, context) in contexts.enumerated() {
            if let inner = context.inner, !(0..<index).contains(inner) {
                throw .invalid("context \(index) chains to context \(inner), which does not come before it")
            }
        }
        if contexts.filter(\.isApp).count > 1 { throw .invalid("more than one app context") }
        for entry in entries {
            if let context = entry.context, !contexts.indices.contains(context) {
                throw .invalid("entry '\(entry.url)' has context \(context) of \(contexts.count)")
            }
        }
    }
}
