/// The part of a route table that matching reads: patterns by route id, the trie, and the param
/// types. It knows nothing of targets, so it is not generic: the search over it compiles to
/// specialized code once, instead of running through generic metadata in every client's
/// `RouteTable<Target>`.
///
/// The trie is flat (`TrieNode`): nodes in one array, literal edges in one `EdgeTable`, literal
/// texts once each in a `LiteralPool`, the routes at a node linked through their records. A pattern
/// is found again (to replace it, or to report a conflict) by walking the trie to its node, so no
/// index by text or by shape is kept beside it.
@usableFromInline
final class RouteIndex {
    // The fields the search reads skip run-time exclusivity checks: a lookup reads them at every
    // node, the checks would cost more than the rest of the visit, and every access is a
    // momentary read or write, so none can overlap another.

    /// A route's pattern and the next route at the same node (in its route or catch-all list),
    /// side by side, so walking a node's routes and reading their patterns touch one record.
    struct Record {
        /// nil for an id freed by a removal and not yet reused.
        var pattern: Pattern?
        var next: Int32
    }

    /// By route id.
    @exclusivity(unchecked) private(set) var records: [Record] = []
    private var freeIDs: [Int32] = []
    @exclusivity(unchecked) private(set) var nodes = [TrieNode(label: TrieNode.none)]
    private var freeNodes: [Int32] = []
    let edges = EdgeTable()
    let literals = LiteralPool()
    /// Param types by slot. Trie nodes keep their type's slot, so the search does not hash the
    /// type name at every edge; registering a type again replaces it in its slot.
    @exclusivity(unchecked) private(set) var typeSlots: [ParamType] = []
    private var slotsByTypeName: [String: Int] = [:]
    /// Whether the table has `*`; the search reports it as the winner when nothing else matches.
    var hasDefaultRoute = false
    /// Routes other than `*`.
    private(set) var count = 0

    static let top: Int32 = 0

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

    /// Every live route id, in no particular order.
    var ids: [Int] { records.indices.filter { records[$0].pattern != nil } }

    /// The live route's pattern.
    func pattern(_ id: Int) -> Pattern { records[id].pattern! }

    /// Whether some pattern uses `scheme` (lowercased): a scheme key is the scheme, or the scheme,
    /// `:` and a port. Read in place, since every open asks (whether its URL is external).
    func usesScheme(_ scheme: String) -> Bool {
        var child = nodes[Int(Self.top)].firstLiteralChild
        while child != TrieNode.none {
            let key = literals.texts[Int(nodes[Int(child)].label)].utf8
            let wanted = scheme.utf8
            if key.starts(with: wanted) {
                let rest = key.dropFirst(wanted.count)
                if rest.isEmpty || rest.first == UInt8(ascii: ":") { return true }
            }
            child = nodes[Int(child)].nextSibling
        }
        return false
    }

    // MARK: Finding a pattern

    /// The routes registered at `pattern`'s node: the one with the same text, and the one of the
    /// same shape under another text (the two differ only in param names or spelling).
    func find(_ pattern: Pattern) -> (sameText: Int?, sameShape: Int?) {
        // `*` is the table's, not the trie's.
        guard !pattern.isDefault, let (node, catchAll) = walk(pattern, creating: false) else { return (nil, nil) }
        var sameShape: Int?
        var route = catchAll ? nodes[Int(node)].firstCatchAll : nodes[Int(node)].firstRoute
        while route != TrieNode.none {
            let other = records[Int(route)].pattern!
            if other.text == pattern.text { return (Int(route), nil) }
            // Same node: same scheme key and the same host and path, so only the query and the
            // fragment can tell the shapes apart.
            if other.shape == pattern.shape { sameShape = Int(route) }
            route = records[Int(route)].next
        }
        return (nil, sameShape)
    }

    /// The registered pattern with `pattern`'s shape (the same text, or another that differs only
    /// in param names or spelling), if any.
    func patternSharingShape(with pattern: Pattern) -> Pattern? {
        let found = find(pattern)
        return (found.sameText ?? found.sameShape).map(self.pattern)
    }

    /// The node `pattern`'s host and path lead to (a trailing catch-all is not a level), and
    /// whether the pattern ends in a catch-all. Without `creating`, nil when some node is missing.
    private func walk(_ pattern: Pattern, creating: Bool, trail: ((Int32) -> Void)? = nil) -> (Int32, Bool)? {
        var positional = pattern.positional
        let catchAll = pattern.rank(positional.upperBound - 1) == Precedence.catchAllRank
        if catchAll { positional = positional.dropLast() }
        guard var node = literalChild(of: Self.top, pattern.rootKey, creating: creating) else { return nil }
        trail?(node)
        for index in positional {
            let next: Int32?
            if pattern.rank(index) == Precedence.literalRank {
                next = literalChild(of: node, pattern.literal(index), creating: creating)
            } else {
                next = paramChild(of: node, type: pattern.paramType(index), creating: creating)
            }
            guard let next else { return nil }
            node = next
            trail?(node)
        }
        return (node, catchAll)
    }

    private func literalChild(of parent: Int32, _ text: String, creating: Bool) -> Int32? {
        if let id = literals.id(of: text), let child = edges.child(of: parent, literal: id) { return child }
        guard creating else { return nil }
        let child = newNode(label: literals.retain(text))
        edges.insert(parent: parent, literal: nodes[Int(child)].label, child: child)
        let head = nodes[Int(parent)].firstLiteralChild
        link(child, before: head)
        nodes[Int(parent)].firstLiteralChild = child
        return child
    }

    private func paramChild(of parent: Int32, type: String, creating: Bool) -> Int32? {
        // The parser accepts only known types, so a registered pattern's type has a slot.
        guard let slot = slotsByTypeName[type].map(Int32.init) else { return nil }
        var sibling = nodes[Int(parent)].firstParamChild
        var before = TrieNode.none
        let rank = Precedence.rank(ofParamType: type)
        while sibling != TrieNode.none {
            let label = nodes[Int(sibling)].label
            if label == slot { return sibling }
            // Params in precedence order, ties by type name: the order the search tries them in.
            let siblingType = typeSlots[Int(label)].name
            let siblingRank = Precedence.rank(ofParamType: siblingType)
            if siblingRank > rank || (siblingRank == rank && siblingType < type) { before = sibling }
            sibling = nodes[Int(sibling)].nextSibling
        }
        guard creating else { return nil }
        let child = newNode(label: slot)
        if before == TrieNode.none {
            let head = nodes[Int(parent)].firstParamChild
            link(child, before: head)
            nodes[Int(parent)].firstParamChild = child
        } else {
            link(child, before: nodes[Int(before)].nextSibling)
            nodes[Int(child)].previousSibling = before
            nodes[Int(before)].nextSibling = child
        }
        return child
    }

    // MARK: Adding and removing

    /// Adds a route whose pattern's text and shape are not registered yet. Ids of removed routes
    /// are reused, so a table that is reloaded over and over does not keep growing.
    func insert(_ pattern: Pattern) -> Int {
        let id: Int32
        if let free = freeIDs.popLast() {
            id = free
            records[Int(id)].pattern = pattern
        } else {
            id = Int32(records.count)
            records.append(Record(pattern: pattern, next: TrieNode.none))
        }
        let specificity = Int32(pattern.specificity)
        let (node, catchAll) = walk(pattern, creating: true) { node in
            self.nodes[Int(node)].maxSpecificity = max(self.nodes[Int(node)].maxSpecificity, specificity)
        }!
        if catchAll { append(id, to: &nodes[Int(node)].firstCatchAll) } else { append(id, to: &nodes[Int(node)].firstRoute) }
        count += 1
        return Int(id)
    }

    /// At the end of a node's list, so routes are considered (and explained) in the order they
    /// were added.
    private func append(_ id: Int32, to head: inout Int32) {
        records[Int(id)].next = TrieNode.none
        guard head != TrieNode.none else {
            head = id
            return
        }
        var last = head
        while records[Int(last)].next != TrieNode.none { last = records[Int(last)].next }
        records[Int(last)].next = id
    }

    /// Takes a live route out of the trie, frees its id, and prunes the nodes left empty.
    func remove(id: Int) {
        guard let pattern = records[id].pattern else { return }
        var trail = [Int32]()
        guard let (node, catchAll) = walk(pattern, creating: false, trail: { trail.append($0) }) else { return }
        if catchAll { unlinkRoute(Int32(id), from: &nodes[Int(node)].firstCatchAll) } else { unlinkRoute(Int32(id), from: &nodes[Int(node)].firstRoute) }
        records[id].pattern = nil
        freeIDs.append(Int32(id))
        count -= 1

        // Bottom up: drop nodes left empty, and recompute maxima only where the route could
        // have been the maximum.
        let specificity = Int32(pattern.specificity)
        var positional = Array(pattern.positional)
        if catchAll { positional.removeLast() }
        for depth in stride(from: trail.count - 1, through: 0, by: -1) {
            let child = trail[depth]
            let parent = depth == 0 ? Self.top : trail[depth - 1]
            if nodes[Int(child)].isEmpty {
                let isLiteral = depth == 0 || pattern.rank(positional[depth - 1]) == Precedence.literalRank
                unlinkChild(child, of: parent, isLiteral: isLiteral)
            } else if nodes[Int(child)].maxSpecificity == specificity {
                refreshMaximum(child)
            }
        }
    }

    private func unlinkRoute(_ id: Int32, from head: inout Int32) {
        if head == id {
            head = records[Int(id)].next
            return
        }
        var route = head
        while route != TrieNode.none {
            if records[Int(route)].next == id {
                records[Int(route)].next = records[Int(id)].next
                return
            }
            route = records[Int(route)].next
        }
    }

    private func unlinkChild(_ child: Int32, of parent: Int32, isLiteral: Bool) {
        let node = nodes[Int(child)]
        if node.previousSibling != TrieNode.none {
            nodes[Int(node.previousSibling)].nextSibling = node.nextSibling
        } else if isLiteral {
            nodes[Int(parent)].firstLiteralChild = node.nextSibling
        } else {
            nodes[Int(parent)].firstParamChild = node.nextSibling
        }
        if node.nextSibling != TrieNode.none { nodes[Int(node.nextSibling)].previousSibling = node.previousSibling }
        if isLiteral {
            edges.remove(parent: parent, literal: node.label)
            literals.release(node.label)
        }
        nodes[Int(child)] = TrieNode(label: TrieNode.none)
        freeNodes.append(child)
    }

    private func newNode(label: Int32) -> Int32 {
        if let free = freeNodes.popLast() {
            nodes[Int(free)] = TrieNode(label: label)
            return free
        }
        nodes.append(TrieNode(label: label))
        return Int32(nodes.count - 1)
    }

    /// Links `child` in front of `next` (which may be none); the caller links whatever comes before.
    private func link(_ child: Int32, before next: Int32) {
        nodes[Int(child)].nextSibling = next
        if next != TrieNode.none { nodes[Int(next)].previousSibling = child }
    }

    /// Recomputes `maxSpecificity` from the node's own routes and its children.
    private func refreshMaximum(_ index: Int32) {
        let node = nodes[Int(index)]
        var best = Int32.min
        for list in [node.firstRoute, node.firstCatchAll] {
            var route = list
            while route != TrieNode.none {
                best = max(best, Int32(records[Int(route)].pattern!.specificity))
                route = records[Int(route)].next
            }
        }
        for list in [node.firstLiteralChild, node.firstParamChild] {
            var child = list
            while child != TrieNode.none {
                best = max(best, nodes[Int(child)].maxSpecificity)
                child = nodes[Int(child)].nextSibling
            }
        }
        nodes[Int(index)].maxSpecificity = best
    }

    // MARK: Reading

    /// The routes at a node: those ending there, or those whose catch-all starts there.
    func routes(at node: Int32, catchAll: Bool) -> [Int] {
        var ids = [Int]()
        var route = catchAll ? nodes[Int(node)].firstCatchAll : nodes[Int(node)].firstRoute
        while route != TrieNode.none {
            ids.append(Int(route))
            route = records[Int(route)].next
        }
        return ids
    }

    /// Every route id at or below a node, for explanations.
    func allRoutes(below node: Int32, into ids: inout [Int]) {
        ids += routes(at: node, catchAll: false)
        ids += routes(at: node, catchAll: true)
        for list in [nodes[Int(node)].firstLiteralChild, nodes[Int(node)].firstParamChild] {
            var child = list
            while child != TrieNode.none {
                allRoutes(below: child, into: &ids)
                child = nodes[Int(child)].nextSibling
            }
        }
    }

    /// The route a URL opens, other than `*`, or nil.
    @usableFromInline
    func lookUp(_ url: NavigationURL) throws -> RouteSearch.Winner? {
        let search = RouteSearch(index: self)
        guard let best = try search.run(url).best else { return nil }
        return search.winner(from: best, url)
    }
}
