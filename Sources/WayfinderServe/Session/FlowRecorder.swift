import OrderedCollections
import Wayfinder
import WayfinderLua

/// The flow graph of the devtools: the screens seen so far as nodes (one per route, by its
/// pattern), and the links seen on them as edges (screen's route to the link's route), marked
/// once the user followed one. A link no route matches, or one that opens outside the app, is a
/// node of its own. The page draws it as SVG.
struct FlowRecorder {
    struct Node {
        let id: String
        let label: String
        /// "screen", "action" (a route of mode none), "outside" (an external URL) or "dead" (no route).
        let kind: String
    }

    struct Edge {
        let from: String
        let to: String
        var label: String
        /// Opened as a modal or a popover.
        let presented: Bool
        var followed: Bool
    }

    /// Past this many the graph stops growing: an app that makes a new URL pattern per screen
    /// cannot make the page draw without end.
    static let nodeLimit = 300
    static let edgeLimit = 1000

    private var nodes = OrderedDictionary<String, Node>()
    /// The node of the visible screen.
    private var current: String?
    private var edges = OrderedDictionary<String, Edge>()
    /// What each URL matched, asked once per route map.
    private var places = [String: (label: String, kind: String, presented: Bool)]()

    /// A screen was shown with these links.
    mutating func saw(_ url: String, links: [RenderedScreen.Link], in host: WayfinderHost) {
        guard let from = node(for: url, in: host) else { return }
        for link in links {
            guard let to = node(for: link.url, in: host) else { continue }
            let key = from.id + ">" + to.id
            if edges[key] == nil, edges.count < Self.edgeLimit {
                edges[key] = Edge(from: from.id, to: to.id, label: link.title, presented: place(of: link.url, in: host).presented, followed: false)
            }
        }
    }

    /// The user followed a link from the screen at `from` to `to`.
    mutating func followed(from: String, to: String, title: String?, in host: WayfinderHost) {
        guard let source = node(for: from, in: host), let target = node(for: to, in: host) else { return }
        let key = source.id + ">" + target.id
        if edges[key] == nil {
            guard edges.count < Self.edgeLimit else { return }
            edges[key] = Edge(from: source.id, to: target.id, label: title ?? "", presented: place(of: to, in: host).presented, followed: true)
        }
        edges[key]?.followed = true
    }

    /// The screen at `url` is the visible one (nil: none is).
    mutating func show(_ url: String?, in host: WayfinderHost) {
        current = url.flatMap { node(for: $0, in: host)?.id }
    }

    /// The route map changed (a reload): URLs are matched again from now on; what was seen stays.
    mutating func routesChanged() {
        places = [:]
    }

    var json: Value {
        [
            "nodes": .array(nodes.values.map { ["id": .string($0.id), "label": .string($0.label), "kind": .string($0.kind)] }),
            "edges": .array(edges.values.map {
                ["from": .string($0.from), "to": .string($0.to), "label": .string($0.label), "presented": .bool($0.presented),
                 "followed": .bool($0.followed)]
            }),
            "current": current.map(Value.string) ?? .null,
        ]
    }

    private mutating func node(for url: String, in host: WayfinderHost) -> Node? {
        let place = place(of: url, in: host)
        let key = place.kind + " " + place.label
        if let known = nodes[key] { return known }
        guard nodes.count < Self.nodeLimit else { return nil }
        let node = Node(id: "n\(nodes.count)", label: place.label, kind: place.kind)
        nodes[key] = node
        return node
    }

    private mutating func place(of url: String, in host: WayfinderHost) -> (label: String, kind: String, presented: Bool) {
        if let known = places[url] { return known }
        let found: (label: String, kind: String, presented: Bool)
        if host.isExternal(url), let parsed = try? NavigationURL(url) {
            found = (parsed.scheme + ":", "outside", false)
        } else if let match = (try? host.match(url))?.match {
            let mode = match.route.options.mode
            found = (match.route.pattern.text, mode == .none ? "action" : "screen", mode == .modal || mode == .popover)
        } else {
            found = (url, "dead", false)
        }
        if places.count < 10_000 { places[url] = found }
        return found
    }
}
