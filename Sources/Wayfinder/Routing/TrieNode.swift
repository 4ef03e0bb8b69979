/// One level of the compiled route table. Level 0 is the host; level n is path segment n.
/// Literal children are found by hashing, so lookup cost does not grow with the number of routes;
/// param children are few (one per type in use at that position).
///
/// The fields skip run-time exclusivity checks: a lookup reads several of them at every node, the
/// checks cost more than the rest of the visit, and every access is a momentary read or write
/// (loops iterate a copy), so none can overlap another.
final class TrieNode {
    @exclusivity(unchecked) var literals: [String: TrieNode] = [:]
    /// Sorted by precedence rank, so typed params are tried before string params.
    @exclusivity(unchecked) var params: [ParamEdge] = []
    /// Routes whose path ends at this level.
    @exclusivity(unchecked) var routes: [Int] = []
    /// Routes whose next (last) component is a `path` catch-all taking the rest of the URL.
    @exclusivity(unchecked) var catchAlls: [Int] = []
    /// The highest host and path specificity of any route at or below this node, for pruning:
    /// precedence compares it first, so a subtree whose maximum is below the best candidate's
    /// cannot hold the winner and is not searched.
    @exclusivity(unchecked) var maxSpecificity = Int.min

    struct ParamEdge {
        let type: String
        /// Where `type` sits in `RouteIndex.typeSlots`; nil if it was unknown when the edge was made.
        let typeSlot: Int?
        let rank: UInt8
        let node: TrieNode
    }

    var isEmpty: Bool { literals.isEmpty && params.isEmpty && routes.isEmpty && catchAlls.isEmpty }

    func child(for component: Pattern.Component, typeSlot: Int?) -> TrieNode {
        switch component {
        case .literal(let text):
            if let node = literals[text] { return node }
            let node = TrieNode()
            literals[text] = node
            return node
        case .param(let param):
            if let edge = params.first(where: { $0.type == param.type }) { return edge.node }
            let edge = ParamEdge(type: param.type, typeSlot: typeSlot, rank: Precedence.rank(of: component), node: TrieNode())
            params.append(edge)
            params.sort { ($0.rank, $1.type) > ($1.rank, $0.type) }
            return edge.node
        }
    }

    func existingChild(for component: Pattern.Component) -> TrieNode? {
        switch component {
        case .literal(let text): return literals[text]
        case .param(let param): return params.first(where: { $0.type == param.type })?.node
        }
    }

    func removeChild(for component: Pattern.Component) {
        switch component {
        case .literal(let text): literals[text] = nil
        case .param(let param): params.removeAll { $0.type == param.type }
        }
    }

    /// Recomputes `maxSpecificity` from this node's own routes and its children.
    func refreshMaximum(specificity: (Int) -> Int) {
        var best = Int.min
        for id in routes { best = max(best, specificity(id)) }
        for id in catchAlls { best = max(best, specificity(id)) }
        for child in literals.values { best = max(best, child.maxSpecificity) }
        for edge in params { best = max(best, edge.node.maxSpecificity) }
        maxSpecificity = best
    }

    /// Every route id at or below this node, for explanations.
    func allRoutes(into ids: inout [Int]) {
        ids += routes
        ids += catchAlls
        for child in literals.values { child.allRoutes(into: &ids) }
        for edge in params { edge.node.allRoutes(into: &ids) }
    }
}
