/// The routes and URLs every contender gets, described once and rendered for each: Wayfinder's
/// pattern text, routing-kit's path components, the linear scan's compiled pattern.
///
/// The table is an app's worth of screens per "section": a section is a host and a first path
/// segment (`app://h7/s3/...`), each with ten routes mixing literals, typed params (`int`),
/// string params, a param in the middle of the path, and a catch-all:
///
///     app://h7/s3                               app://h7/s3/items
///     app://h7/s3/item/(id:int)                 app://h7/s3/item/(id:int)/edit
///     app://h7/s3/item/(name)                   app://h7/s3/user/(user)/posts/(post:int)
///     app://h7/s3/files/(rest:path)             app://h7/s3/tag/(tag)/page/(page:int)
///     app://h7/s3/settings/profile              app://h7/s3/(slug)/about
///
/// Sections spread over up to 100 hosts, then over first segments, so 100,000 routes are 100 hosts
/// × 100 sections × 10.
struct RouteSet {
    enum Kind: Equatable {
        case string, int
    }

    enum Component: Equatable {
        case literal(String)
        case param(name: String, kind: Kind)
        case catchAll(name: String)
    }

    struct RouteSpec {
        /// Host first, then the path.
        let components: [Component]
        let template: Int

        var wayfinderPattern: String {
            var text = "app:/"
            for component in components {
                text += "/"
                switch component {
                case .literal(let literal): text += literal
                case .param(let name, .string): text += "(\(name))"
                case .param(let name, .int): text += "(\(name):int)"
                case .catchAll(let name): text += "(\(name):path)"
                }
            }
            return text
        }
    }

    static let templatesPerSection = 10
    static let maximumHosts = 100

    let routes: [RouteSpec]
    /// URLs to look up: hits on routes all over the table, then misses, shuffled together.
    let urls: [String]
    /// How many of `urls` were generated to hit a route.
    let hitCount: Int

    init(routeCount: Int, urlCount: Int, seed: UInt64) {
        let sections = (routeCount + Self.templatesPerSection - 1) / Self.templatesPerSection
        let hosts = max(1, min(Self.maximumHosts, sections))
        var routes = [RouteSpec]()
        routes.reserveCapacity(routeCount)
        for index in 0..<routeCount {
            let section = index / Self.templatesPerSection
            let prefix = [Component.literal("h\(section % hosts)"), .literal("s\(section / hosts)")]
            let template = index % Self.templatesPerSection
            routes.append(RouteSpec(components: prefix + Self.template(template), template: template))
        }
        self.routes = routes

        var generator = SeededGenerator(seed: seed)
        var urls = [String]()
        let hits = urlCount * 4 / 5
        for _ in 0..<hits {
            let route = routes[Int.random(in: 0..<routeCount, using: &generator)]
            urls.append(Self.hitURL(for: route, using: &generator))
        }
        for _ in hits..<urlCount {
            urls.append(Self.missURL(sections: sections, hosts: hosts, using: &generator))
        }
        urls.shuffle(using: &generator)
        self.urls = urls
        hitCount = hits
    }

    private static func template(_ number: Int) -> [Component] {
        switch number {
        case 0: return []
        case 1: return [.literal("items")]
        case 2: return [.literal("item"), .param(name: "id", kind: .int)]
        case 3: return [.literal("item"), .param(name: "id", kind: .int), .literal("edit")]
        case 4: return [.literal("item"), .param(name: "name", kind: .string)]
        case 5: return [.literal("user"), .param(name: "user", kind: .string), .literal("posts"), .param(name: "post", kind: .int)]
        case 6: return [.literal("files"), .catchAll(name: "rest")]
        case 7: return [.literal("tag"), .param(name: "tag", kind: .string), .literal("page"), .param(name: "page", kind: .int)]
        case 8: return [.literal("settings"), .literal("profile")]
        default: return [.param(name: "slug", kind: .string), .literal("about")]
        }
    }

    /// A URL that the route answers (and that a more specific route does not take from it).
    private static func hitURL(for route: RouteSpec, using generator: inout SeededGenerator) -> String {
        var text = "app:/"
        for component in route.components {
            text += "/"
            switch component {
            case .literal(let literal): text += literal
            case .param(_, .int): text += String(Int.random(in: 1...999_999, using: &generator))
            case .param(_, .string): text += "w\(Int.random(in: 1...99_999, using: &generator))x"
            case .catchAll: text += "docs/r\(Int.random(in: 1...999, using: &generator))/notes.txt"
            }
        }
        // A quarter of the links carry a query, as links from lists and toolbars do.
        if Int.random(in: 0..<4, using: &generator) == 0 { text += "?ref=list&page=2" }
        return text
    }

    /// A URL that no route answers: an unknown host, an unknown path in a known section, a path
    /// that runs past every pattern, or a type that does not convert.
    private static func missURL(sections: Int, hosts: Int, using generator: inout SeededGenerator) -> String {
        let section = Int.random(in: 0..<sections, using: &generator)
        let base = "app://h\(section % hosts)/s\(section / hosts)"
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return "app://nohost\(Int.random(in: 1...9999, using: &generator))/s0/items"
        case 1: return base + "/nothing/here/\(Int.random(in: 1...9999, using: &generator))"
        case 2: return base + "/settings/profile/extra"
        default: return base + "/user/w1x/posts/notanumber"
        }
    }
}
