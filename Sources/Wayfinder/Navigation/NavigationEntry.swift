import OrderedCollections

/// One screen in the hierarchy: its URL, and its controller once made. An entry restored from
/// saved state or set up as a background tab has no controller until it becomes visible.
public final class NavigationEntry<Controller: AnyObject> {
    /// The URL the entry was opened with, normalized.
    public let url: String
    /// The URL as share mode compares it (`URLNormalization`).
    public let key: String
    /// How its route opens it.
    public let mode: NavigationMode
    /// Values the opening action added to the URL's own query; saved with the entry when they
    /// are plain data.
    public let query: OrderedDictionary<String, Value>
    /// The entry's controller; nil until it is made (an entry restored but not yet shown).
    public internal(set) var controller: Controller?
    /// For an entry restored from saved state and not made yet: how to make it.
    public internal(set) var pending: PendingEntry?

    /// Whether the controller has been made.
    public var isLoaded: Bool { controller != nil }

    /// Names this entry in snapshots and events (`NavigationSnapshot.Entry.id`): unique in the
    /// process, and the same for as long as the entry lives. Given the first time it is asked
    /// for, so a navigator nobody observes never numbers its entries.
    public var id: Int {
        if assignedID == 0 { assignedID = UniqueNumber.next() }
        return assignedID
    }
    private var assignedID = 0

    init(url: String, key: String, mode: NavigationMode, query: OrderedDictionary<String, Value> = [:],
         controller: Controller?, pending: PendingEntry? = nil) {
        self.url = url
        self.key = key
        self.mode = mode
        self.query = query
        self.controller = controller
        self.pending = pending
    }
}
