/// The part of a route table that matching reads: compiled patterns by route id, the trie, and the
/// param types. It knows nothing of targets, so it is not generic: the search over it compiles to
/// specialized code once, instead of running through generic metadata in every client's
/// `RouteTable<Target>`.
@usableFromInline
final class RouteIndex {
    // The fields the search reads skip run-time exclusivity checks, as `TrieNode`'s do.

    /// A registered pattern behind a reference, so that the search reads the fields it needs
    /// without copying (and retaining) the whole pattern at every candidate. `RouteTable`
    /// subclasses it to keep the target and options in the same object, so a large table's lookup
    /// touches one object per route rather than one slot in each of several big arrays.
    @usableFromInline
    class Entry {
        @usableFromInline let pattern: Pattern
        init(_ pattern: Pattern) { self.pattern = pattern }
    }

    /// By route id; nil in a slot freed by a removal and not yet reused.
    @exclusivity(unchecked) private(set) var entries: [Entry?] = []
    private var freeIDs: [Int] = []
    private var idsByText: [String: Int] = [:]
    private var idsByShape: [String: Int] = [:]
    /// Trie roots by scheme, or by `scheme:port` for patterns that name a port.
    @exclusivity(unchecked) private(set) var schemes: [String: TrieNode] = [:]
    /// Param types by slot. Trie edges keep their type's slot, so the search does not hash the
    /// type name at every edge; registering a type again replaces it in its slot.
    @exclusivity(unchecked) private(set) var typeSlots: [ParamType] = []
    private var slotsByTypeName: [String: Int] = [:]
    /// Whether the table has `*`; the search reports it as the winner when nothing else matches.
    var hasDefaultRoute = false

    init() {
        for type in ParamType.builtins { register(type) }
    }

    func register(_ type: ParamType) {
        if let slot = slotsByTypeName[type.name] {
            typeSlots[slot] = type
        } else {
            slotsByTypeName[type.name] = typeSlots.count
            typeSlots.append(type)
        }
    }

    func type(named name: String) -> ParamType? {
        slotsByTypeName[name].map { typeSlots[$0] }
    }

    /// Routes other than `*`.
    var count: Int { idsByText.count }

    /// Every live route id, in no particular order.
    var ids: Dictionary<String, Int>.Values { idsByText.values }

    func id(forText text: String) -> Int? { idsByText[text] }

    /// The registered pattern that `pattern` would conflict with: the same shape under another text.
    func patternSharingShape(with pattern: Pattern) -> Pattern? {
        idsByShape[pattern.shape].flatMap { entries[$0]?.pattern }
    }

    /// Adds a route whose pattern's text and shape are not registered yet. Ids of
    /// removed routes are reused, so a table that is reloaded over and over does not keep growing.
    func insert(_ entry: Entry) {
        let pattern = entry.pattern
        let id: Int
        if let free = freeIDs.popLast() {
            id = free
            entries[id] = entry
        } else {
            id = entries.count
            entries.append(entry)
        }
        idsByText[pattern.text] = id
        idsByShape[pattern.shape] = id

        let root = schemes[pattern.rootKey] ?? TrieNode()
        schemes[pattern.rootKey] = root
        var trail = [root]
        var node = root
        let positional = Self.positionalComponents(pattern)
        for component in positional.body {
            node = node.child(for: component, typeSlot: component.param.flatMap { slotsByTypeName[$0.type] })
            trail.append(node)
        }
        if positional.catchAll { node.catchAlls.append(id) } else { node.routes.append(id) }
        for node in trail { node.maxSpecificity = max(node.maxSpecificity, pattern.specificity) }
    }

    /// Takes a live route out of the trie and frees its id.
    func remove(id: Int) {
        guard let pattern = entries[id]?.pattern else { return }
        entries[id] = nil
        freeIDs.append(id)
        idsByText[pattern.text] = nil
        idsByShape[pattern.shape] = nil
        guard let root = schemes[pattern.rootKey] else { return }
        // Walk down recording the path, take the id out, then prune and refresh on the way up.
        var trail: [(node: TrieNode, component: Pattern.Component)] = []
        var node = root
        let positional = Self.positionalComponents(pattern)
        for component in positional.body {
            guard let next = node.existingChild(for: component) else { return }
            trail.append((node, component))
            node = next
        }
        if positional.catchAll { node.catchAlls.removeAll { $0 == id } } else { node.routes.removeAll { $0 == id } }
        node.refreshMaximum(specificity: specificity(of:))
        for (parent, component) in trail.reversed() {
            if let child = parent.existingChild(for: component), child.isEmpty { parent.removeChild(for: component) }
            parent.refreshMaximum(specificity: specificity(of:))
        }
        if root.isEmpty { schemes[pattern.rootKey] = nil }
    }

    /// The route a URL opens, other than `*`, or nil.
    @usableFromInline
    func lookUp(_ url: NavigationURL) throws -> RouteSearch.Winner? {
        var search = RouteSearch(index: self, url: url, explaining: false)
        try search.run()
        guard let best = search.best else { return nil }
        return search.winner(from: best)
    }

    private func specificity(of id: Int) -> Int { entries[id]?.pattern.specificity ?? Int.min }

    /// The live route's pattern.
    func pattern(_ id: Int) -> Pattern { entries[id]!.pattern }

    /// The live route's entry.
    func entry(_ id: Int) -> Entry { entries[id]! }

    /// The host and path components that are trie levels; a trailing catch-all is not a level.
    private static func positionalComponents(_ pattern: Pattern) -> (body: ArraySlice<Pattern.Component>, catchAll: Bool) {
        let all = [pattern.host] + pattern.path
        if let last = all.last?.param, last.isCatchAll { return (all.dropLast(), true) }
        return (all[...], false)
    }
}
