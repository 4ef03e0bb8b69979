/// A route's `parent` may be a pattern whose params are the route's own (`tt://cat/(c)` under
/// `tt://cat/(c)/item/(id:int)`): each open fills it from the URL that opened, so a link to an
/// item builds its category beneath it. A parent without params is a plain URL.
extension RouteTable {
    /// The parent `text` of a route of `child` as a pattern to fill, nil when it has no params.
    /// A param the child does not have could never be filled, so it is refused here, when the
    /// route is added, not at some later open.
    public func parentPattern(_ text: String, of child: Pattern) throws(PatternError) -> Pattern? {
        guard text.contains("(") else { return nil }
        let pattern = try generatorPattern(text)
        if pattern.paramNames.isEmpty { return nil }
        let known = Set(child.paramNames)
        if let missing = pattern.paramNames.first(where: { !known.contains($0) }) {
            let have = child.paramNames.isEmpty ? "it has none" : "its params: " + child.paramNames.joined(separator: ", ")
            throw PatternError(pattern: text, reason: "the parent of '\(child.text)' needs the param '\(missing)', which '\(child.text)' does not have (\(have))")
        }
        return pattern
    }

    /// The parent `match`'s route names, filled from the match's params when it is a pattern.
    public func parentURL(of match: RouteMatch<Target>) throws -> String? {
        guard let parent = match.route.options.parent else { return nil }
        guard let pattern = try parentPattern(parent, of: match.route.pattern) else { return parent }
        return try url(for: pattern) { match.params[$0] }
    }
}
