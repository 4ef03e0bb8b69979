/// One node of the compiled route table, kept by index in `RouteIndex.nodes` so that the whole
/// trie is a few flat arrays rather than objects and dictionaries scattered over the heap. Node 0
/// is the top, whose literal children are the scheme keys; below a scheme key, level 0 is the
/// host and level n is path segment n.
///
/// Children are found through `EdgeTable` (literals) or the param list (few: one per type in use
/// at that position); the literal list is walked only to enumerate.
struct TrieNode {
    static let none: Int32 = -1

    /// For a literal child, its text's id in `LiteralPool`; for a param child, its type's slot.
    var label: Int32
    /// The highest host and path specificity of any route at or below this node, for pruning:
    /// precedence compares it first, so a subtree whose maximum is below the best candidate's
    /// cannot hold the winner and is not searched.
    var maxSpecificity = Int32.min
    var firstLiteralChild = none
    /// In precedence order (typed params before string params), then by type name.
    var firstParamChild = none
    /// The neighbours in the parent's literal or param list.
    var previousSibling = none
    var nextSibling = none
    /// Routes whose path ends here, linked through `RouteIndex.Record.next`.
    var firstRoute = none
    /// Routes whose next (last) component is a `path` catch-all taking the rest of the URL.
    var firstCatchAll = none

    init(label: Int32) { self.label = label }

    var isEmpty: Bool {
        firstLiteralChild == Self.none && firstParamChild == Self.none && firstRoute == Self.none && firstCatchAll == Self.none
    }
}
