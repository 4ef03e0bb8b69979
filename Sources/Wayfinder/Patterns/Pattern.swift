/// A compiled route pattern (docs/matching.md, "Pattern grammar"): `*`, or a scheme, a host component,
/// path components, query components and an optional fragment component.
///
/// A table may hold a hundred thousand patterns, so a pattern is one small object: its text and,
/// per component, where the component sits in the text and its precedence rank (`Piece`). The
/// components themselves are read back from the text when asked for; matching reads the pieces.
///
/// Sendable although `ManagedBuffer` is not: the storage is never changed once made.
public struct Pattern: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// The most path segments a pattern has. A URL is matched by descending the route trie a
    /// segment a level, by recursion, so the trie's depth is bounded here.
    public static let maximumPathSegments = 256

    /// One part of a pattern: literal text or a parameter.
    public enum Component: Sendable, Hashable {
        /// Decoded text. Host literals are stored lowercased, since hosts compare without case.
        case literal(String)
        /// A parameter.
        case param(Param)

        /// The parameter, when the component is one.
        public var param: Param? { if case .param(let p) = self { return p } else { return nil } }
    }

    /// A named, typed parameter (`{id:int}`).
    public struct Param: Sendable, Hashable {
        /// nil for an anonymous param `()`, which matches but binds nothing.
        public let name: String?
        /// A built-in type name (see `ParamType`) or one registered by a script.
        public let type: String

        /// Whether it takes the rest of the path (`path` type).
        public var isCatchAll: Bool { type == ParamType.pathName }
        /// Whether it is of the string type.
        public var isString: Bool { type == ParamType.stringName }
    }

    /// One `key=component` of the pattern's query.
    public struct QueryComponent: Sendable, Hashable {
        /// The query key.
        public let key: String
        /// What the key's value must be.
        public let component: Component
    }

    /// Where one component sits in the pattern's text. The pieces are the host, the path
    /// components, each query component as two pieces (its key, then its value) and the fragment.
    struct Piece {
        /// UTF-8 offsets of the component in the text: a literal as written (still percent-encoded),
        /// or a param's whole `(name:type)`.
        let start: UInt32
        let end: UInt32
        /// `Precedence.rank(of:)`: literal 3, typed param 2, string param 1, catch-all 0. A query
        /// key is a literal.
        let rank: UInt8

        var isLiteral: Bool { rank == Precedence.literalRank }
    }

    struct Header {
        let text: String
        let isDefault: Bool
        let hasFragment: Bool
        /// Host and path components: the trie's levels, and the catch-all.
        let positionalCount: Int32
        let queryCount: Int32
        /// -1 for none (or the scheme's default port).
        let port: Int32
        /// Rule 2 of `Precedence`, kept because the search compares it at every trie node.
        let specificity: Int32
    }

    /// The header and the pieces in one allocation. Immutable once made.
    final class Storage: ManagedBuffer<Header, Piece> {
        static func make(_ header: Header, _ pieces: [Piece]) -> Storage {
            let buffer = Storage.create(minimumCapacity: pieces.count) { _ in header }
            buffer.withUnsafeMutablePointerToElements { $0.initialize(from: pieces, count: pieces.count) }
            return unsafeDowncast(buffer, to: Storage.self)
        }

        var pieceCount: Int { Int(header.positionalCount + 2 * header.queryCount) + (header.hasFragment ? 1 : 0) }

        @inline(__always)
        func piece(_ index: Int) -> Piece {
            withUnsafeMutablePointerToElements { $0[index] }
        }
    }

    let storage: Storage

    /// The text as registered; patterns are told apart and reported by it.
    public var text: String { storage.header.text }
    /// True for `*`, the default route.
    public var isDefault: Bool { storage.header.isDefault }
    /// The pattern's text.
    public var description: String { text }

    /// Lowercased.
    public var scheme: String {
        guard !isDefault, let separator = text.utf8.firstIndex(of: UInt8(ascii: ":")) else { return "" }
        return NavigationURL.asciiLowercased(String(text[..<separator]))
    }

    /// The host component; empty for the default pattern `*`.
    public var host: Component { isDefault ? .literal("") : component(0) }

    /// nil for none (or the scheme's default port); a URL matches only with the same port.
    public var port: Int? { storage.header.port < 0 ? nil : Int(storage.header.port) }

    /// The path components, in order.
    public var path: [Component] { positional.dropFirst().map(component) }

    /// The query components.
    public var query: [QueryComponent] {
        (0..<queryCount).map { queryComponent($0) }
    }

    /// The fragment component, when the pattern has one.
    public var fragment: Component? {
        storage.header.hasFragment ? component(storage.pieceCount - 1) : nil
    }

    /// Every component in pattern order: host, path, query, fragment.
    public var orderedComponents: [Component] {
        guard !isDefault else { return [] }
        return [host] + path + query.map(\.component) + (fragment.map { [$0] } ?? [])
    }

    /// Named params in pattern order; their names make the deduced constructor selector.
    public var paramNames: [String] {
        guard !isDefault else { return [] }
        var names = [String]()
        for index in 0..<storage.pieceCount where !storage.piece(index).isLiteral {
            if let name = paramName(index) { names.append(name) }
        }
        return names
    }

    /// Where the pattern stands in "Which pattern wins", with every query param counted as bound.
    public var precedence: Precedence { Precedence(pattern: self) }

    /// The host and path specificity that precedence compares first: literals count 2, params 1,
    /// a catch-all 0 (-1 for `*`).
    public var specificity: Int { Int(storage.header.specificity) }

    /// The pattern with param names removed and spellings normalised: two patterns with the same
    /// shape but different texts conflict.
    public var shape: String {
        guard !isDefault else { return "*" }
        var shape = scheme + "://" + Pattern.shapeText(host) + (port.map { ":" + String($0) } ?? "")
        for component in path { shape += "/" + Pattern.shapeText(component) }
        let sortedQuery = query.sorted { $0.key < $1.key }
        if !sortedQuery.isEmpty {
            shape += "?" + sortedQuery.map { PercentEncoding.escape($0.key) + "=" + Pattern.shapeText($0.component) }.joined(separator: "&")
        }
        if let fragment { shape += "#" + Pattern.shapeText(fragment) }
        return shape
    }

    /// The trie root the pattern lives under: the scheme, with the port when there is one.
    var rootKey: String { port.map { scheme + ":" + String($0) } ?? scheme }

    /// Whether both patterns have the same text.
    public static func == (a: Pattern, b: Pattern) -> Bool { a.storage === b.storage || a.text == b.text }
    /// Hashes the pattern's text.
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }

    // MARK: Pieces

    /// Host and path pieces: indices 0 (the host) up to the catch-all, if any.
    var positional: Range<Int> { 0..<Int(storage.header.positionalCount) }

    var pieceCount: Int { storage.pieceCount }

    var queryCount: Int { Int(storage.header.queryCount) }

    /// Piece index of query component `n`'s value (its key is the piece before).
    func queryValueIndex(_ n: Int) -> Int { Int(storage.header.positionalCount) + 2 * n + 1 }

    /// Piece index of the fragment, if there is one.
    var fragmentIndex: Int? { storage.header.hasFragment ? storage.pieceCount - 1 : nil }

    func rank(_ index: Int) -> UInt8 { storage.piece(index).rank }

    /// The component at piece `index`, read back from the text.
    func component(_ index: Int) -> Component {
        let piece = storage.piece(index)
        guard piece.isLiteral else { return .param(Param(name: paramName(index), type: paramType(index))) }
        return .literal(literal(index))
    }

    func queryComponent(_ n: Int) -> QueryComponent {
        let value = queryValueIndex(n)
        return QueryComponent(key: literal(value - 1), component: component(value))
    }

    /// A literal piece's decoded text (lowercased for the host). Decoding was checked when the
    /// pattern was parsed, so it cannot fail here.
    func literal(_ index: Int) -> String {
        let piece = storage.piece(index)
        let raw = text.withBytes { bytes in
            String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(piece.start)..<Int(piece.end)]), as: UTF8.self)
        }
        let decoded = (try? PercentEncoding.unescape(raw)) ?? raw
        return index == 0 ? NavigationURL.asciiLowercased(decoded) : decoded
    }

    /// Whether piece `index` is a param with a name, read without making the name.
    func isNamedParam(_ index: Int) -> Bool {
        let piece = storage.piece(index)
        guard !piece.isLiteral else { return false }
        return text.withBytes { bytes in
            let first = bytes[Int(piece.start) + 1]
            return first != UInt8(ascii: ":") && first != UInt8(ascii: ")")
        }
    }

    /// A param piece's name, nil for an anonymous param.
    func paramName(_ index: Int) -> String? {
        let piece = storage.piece(index)
        return text.withBytes { bytes in
            let start = Int(piece.start) + 1
            var end = start
            while bytes[end] != UInt8(ascii: ":") && bytes[end] != UInt8(ascii: ")") { end += 1 }
            return end == start ? nil : String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
    }

    /// A param piece's type name (`string` when the pattern names none).
    func paramType(_ index: Int) -> String {
        let piece = storage.piece(index)
        return text.withBytes { bytes in
            let end = Int(piece.end) - 1
            var colon = Int(piece.start) + 1
            while colon < end && bytes[colon] != UInt8(ascii: ":") { colon += 1 }
            guard colon + 1 < end else { return ParamType.stringName }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[(colon + 1)..<end]), as: UTF8.self)
        }
    }

    // MARK: Making one

    /// A component as the parser read it, and where it sits in the text (UTF-8 offsets).
    typealias Placed = (component: Component, range: Range<Int>)

    init(text: String, host: Placed, port: Int?, path: [Placed], query: [(key: Range<Int>, value: Placed)], fragment: Placed?) {
        var pieces = [Piece]()
        pieces.reserveCapacity(1 + path.count + 2 * query.count + (fragment == nil ? 0 : 1))
        func add(_ range: Range<Int>, _ rank: UInt8) {
            pieces.append(Piece(start: UInt32(range.lowerBound), end: UInt32(range.upperBound), rank: rank))
        }
        var specificity = 0
        for placed in [host] + path {
            add(placed.range, Precedence.rank(of: placed.component))
            specificity += Precedence.weight(of: placed.component)
        }
        for pair in query {
            add(pair.key, Precedence.literalRank)
            add(pair.value.range, Precedence.rank(of: pair.value.component))
        }
        if let fragment { add(fragment.range, Precedence.rank(of: fragment.component)) }
        storage = .make(Header(text: text, isDefault: false, hasFragment: fragment != nil, positionalCount: Int32(1 + path.count),
                               queryCount: Int32(query.count), port: Int32(port ?? -1), specificity: Int32(specificity)),
                        pieces)
    }

    /// The same pattern with only the query components `keep` accepts, and its fragment only if
    /// `keepFragment`: what a URL is generated from when some optional components are left out
    /// (a moved route fills only what the old URL bound). The text stays the pattern's.
    func keeping(queryComponents keep: (QueryComponent) -> Bool, fragment keepFragment: Bool) -> Pattern {
        var pieces = positional.map(storage.piece)
        var kept = 0
        for n in 0..<queryCount where keep(queryComponent(n)) {
            let value = queryValueIndex(n)
            pieces += [storage.piece(value - 1), storage.piece(value)]
            kept += 1
        }
        let fragment = keepFragment ? fragmentIndex.map(storage.piece) : nil
        if let fragment { pieces.append(fragment) }
        let header = storage.header
        return Pattern(storage: .make(Header(text: header.text, isDefault: header.isDefault, hasFragment: fragment != nil,
                                             positionalCount: header.positionalCount, queryCount: Int32(kept),
                                             port: header.port, specificity: header.specificity), pieces))
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    private init(defaultRoute text: String) {
        storage = .make(Header(text: text, isDefault: true, hasFragment: false, positionalCount: 0, queryCount: 0, port: -1,
                               specificity: -1), [])
    }

    static let defaultRoute = Pattern(defaultRoute: "*")

    private static func shapeText(_ component: Component) -> String {
        switch component {
        case .literal(let text): return PercentEncoding.escape(text)
        case .param(let p): return "(:" + p.type + ")"
        }
    }
}
