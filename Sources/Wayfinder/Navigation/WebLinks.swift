import OrderedCollections

/// Which web URLs open which app routes: each route marked `external` whose pattern sits under an
/// inside link prefix, read from the web under its outside one. From it come the files the
/// platforms fetch from the web site to trust the app with its links: Apple's
/// apple-app-site-association (`applinks`, one component per route) and Android's Digital Asset
/// Links statement list (assetlinks.json, which names the app, not paths).
public struct WebLinks: Sendable {
    /// One web address and the app URL it opens.
    public struct Link: Sendable, Equatable {
        /// The web URL pattern (`https://shop.example.com/item/(id:int)`).
        public let web: String
        /// The route's pattern (`tt://item/(id:int)`).
        public let route: String
        /// The web URL's scheme and host, lowercased (`https://shop.example.com`).
        public let site: String
        /// The apple-app-site-association component matching the web URLs: its path, query and
        /// fragment, each param a `*`.
        public let component: OrderedDictionary<String, Value>
    }

    /// The links, in the order the file gives them.
    public let links: [Link]

    /// `routes` in precedence order, as (pattern, external) pairs. A route counts only when a web
    /// URL of its pattern is read back as that pattern: one under a longer outside prefix that
    /// leads elsewhere never reaches it.
    public init(routes: [(pattern: String, external: Bool)], prefixes: LinkPrefixes) {
        var links: [Link] = []
        for route in routes where route.external {
            for pair in prefixes.pairs where route.pattern.hasPrefix(pair.inside) {
                let web = pair.outside + route.pattern.dropFirst(pair.inside.count)
                guard prefixes.appURL(for: web) == route.pattern, let link = Self.link(web: web, route: route.pattern) else { continue }
                links.append(link)
            }
        }
        self.links = links
    }

    /// The sites (scheme and host) the links are on, in order of first appearance.
    public var sites: [String] { Array(OrderedSet(links.map(\.site))) }

    /// The apple-app-site-association file for `site`'s links, for the app `appID`
    /// (`TEAMID.bundle.id`): `{ "applinks": { "details": [ { "appIDs": [...], "components": [...] } ] } }`,
    /// each component commented with the route it opens.
    public func appleAppSiteAssociation(appID: String, site: String) -> Value {
        let components = links.filter { $0.site == site }.map { link -> Value in
            var component = link.component
            component["comment"] = .string("opens " + link.route)
            return .map(component)
        }
        let detail: Value = ["appIDs": .array([.string(appID)]), "components": .array(components)]
        return ["applinks": ["details": .array([detail])]]
    }

    /// The Digital Asset Links statement list trusting the Android app `package`, signed with the
    /// certificate whose SHA-256 fingerprint is `fingerprint`, with every link of the site.
    public static func assetLinks(package: String, fingerprint: String) -> Value {
        .array([[
            "relation": .array(["delegate_permission/common.handle_all_urls"]),
            "target": [
                "namespace": "android_app", "package_name": .string(package),
                "sha256_cert_fingerprints": .array([.string(fingerprint)]),
            ],
        ]])
    }

    /// Whether `fingerprint` is a SHA-256 fingerprint as Android's tools print it: 32 bytes in
    /// upper-case hex, colon-separated.
    public static func isFingerprint(_ fingerprint: String) -> Bool {
        let bytes = fingerprint.split(separator: ":", omittingEmptySubsequences: false)
        return bytes.count == 32 && bytes.allSatisfy { $0.count == 2 && $0.allSatisfy { "0123456789ABCDEF".contains($0) } }
    }

    /// How a published apple-app-site-association file differs from `site`'s links: the
    /// components the map needs that it lacks, and those it has that no external route stands for
    /// (comments aside). Only the details naming `appID` count, when one is given.
    public func differences(fromPublished file: Value, appID: String?, site: String) throws(WebLinkFileError) -> (missing: [String], extra: [String]) {
        guard let details = file["applinks"]?["details"]?.arrayValue else {
            throw WebLinkFileError(reason: "it has no applinks.details list, so it is no apple-app-site-association file")
        }
        var published = OrderedSet<String>()
        for detail in details {
            let ids = (detail["appIDs"]?.arrayValue ?? []).compactMap(\.stringValue) + [detail["appID"]?.stringValue].compactMap { $0 }
            if let appID, !ids.contains(appID) { continue }
            for component in detail["components"]?.arrayValue ?? [] {
                guard var fields = component.mapValue else { throw WebLinkFileError(reason: "a component is \(component.typeDescription), not an object") }
                fields["comment"] = nil
                published.append(Self.canonical(.map(fields)))
            }
        }
        let needed = OrderedSet(links.filter { $0.site == site }.map { Self.canonical(.map($0.component)) })
        return (needed.subtracting(published).elements, published.subtracting(needed).elements)
    }

    /// A value as JSON with its objects' keys sorted, so two spellings of one component compare equal.
    static func canonical(_ value: Value) -> String {
        switch value {
        case .map(let fields):
            return "{" + fields.keys.sorted().map { ((try? JSON.encode(.string($0))) ?? "") + ":" + canonical(fields[$0] ?? .null) }.joined(separator: ",") + "}"
        case .array(let items):
            return "[" + items.map(canonical).joined(separator: ",") + "]"
        default:
            return (try? JSON.encode(value)) ?? ""
        }
    }

    private static func link(web: String, route: String) -> Link? {
        guard let hostStart = web.range(of: "://")?.upperBound else { return nil }
        let pathStart = web[hostStart...].firstIndex(of: "/") ?? web.endIndex
        let site = web[..<pathStart].lowercased()
        var rest = web[pathStart...]
        var component = OrderedDictionary<String, Value>()
        var fragment: Substring?
        if let hash = rest.firstIndex(of: "#") { fragment = rest[rest.index(after: hash)...]; rest = rest[..<hash] }
        var query: Substring?
        if let mark = rest.firstIndex(of: "?") { query = rest[rest.index(after: mark)...]; rest = rest[..<mark] }
        component["/"] = .string(starred(rest.isEmpty ? "/" : rest))
        if let query, !query.isEmpty {
            var fields = OrderedDictionary<String, Value>()
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                fields[String(parts[0])] = .string(parts.count > 1 ? starred(parts[1]) : "")
            }
            component["?"] = .map(fields)
        }
        if let fragment, !fragment.isEmpty { component["#"] = .string(starred(fragment)) }
        return Link(web: web, route: route, site: site, component: component)
    }

    /// A pattern's text with each param, `(...)`, as `*`.
    private static func starred(_ text: Substring) -> String {
        var out = ""
        var depth = 0
        for character in text {
            if character == "(" { if depth == 0 { out.append("*") }; depth += 1; continue }
            if character == ")", depth > 0 { depth -= 1; continue }
            if depth == 0 { out.append(character) }
        }
        return out
    }
}

/// A published link file that cannot be read as one, and why.
public struct WebLinkFileError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the file, naming the entry at fault.
    public let reason: String
    /// The reason.
    public var description: String { reason }
}
