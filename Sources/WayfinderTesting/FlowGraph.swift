import Wayfinder
import WayfinderLua

/// A crawl as a graph: one node per route reached (grouped by the tab it was first reached in),
/// one edge per pair of routes a link joins, modal and popover edges marked, dead links as nodes
/// of their own. Written for Graphviz (`dot`), Mermaid, or as JSON.
package struct FlowGraph {
    package struct Node: Equatable {
        package var id: String
        package var label: String
        /// Index into the crawl's tabs; nil outside any tab.
        package var tab: Int?
        package var dead: Bool
        package var action: Bool
    }

    package struct Edge: Equatable {
        package var from: String
        package var to: String
        package var label: String
        package var presented: Bool
    }

    package var nodes: [Node] = []
    package var edges: [Edge] = []
    package var tabs: [String]
    /// Each tab's group label: `tab 2 (Lunch): tt://menu/2`, as `open`'s tree names tabs.
    package var tabLabels: [String]

    package init(_ crawl: FlowCrawl) {
        tabs = crawl.tabs
        tabLabels = crawl.tabs.enumerated().map { index, url in
            "tab \(TabNumber.number(of: index))" + (crawl.tabTitles[url].map { " (\($0))" } ?? "") + ": " + url
        }
        var ids = [String: String]()
        let modes = Dictionary(crawl.routeModes.map { ($0.pattern, $0.mode) }, uniquingKeysWith: { first, _ in first })
        func node(_ label: String, tab: Int?, dead: Bool = false) -> String {
            if let id = ids[label] { return id }
            let id = "n\(ids.count)"
            ids[label] = id
            nodes.append(Node(id: id, label: label, tab: tab, dead: dead, action: modes[label] == NavigationMode.none))
            return id
        }
        let tabOfScreen = Dictionary(crawl.screens.map { ($0.url, $0.tab) }, uniquingKeysWith: { first, _ in first })
        for screen in crawl.screens { _ = node(screen.route, tab: screen.tab) }
        var seen = Set<String>()
        func edge(_ from: String, _ to: String, _ label: String, presented: Bool) {
            guard seen.insert(from + ">" + to).inserted else { return }
            edges.append(Edge(from: from, to: to, label: label, presented: presented))
        }
        for link in crawl.links {
            guard let route = link.route else { continue }
            let tab = tabOfScreen[link.from] ?? nil
            let from = node(link.fromRoute, tab: tab)
            let to = node(route, tab: tab)
            edge(from, to, link.title, presented: link.mode == .modal || link.mode == .popover)
        }
        for result in crawl.actionResults {
            guard let from = ids[result.action] else { continue }
            let screen = node(result.screen, tab: nodes.first(where: { $0.id == from })?.tab)
            let presented = modes[result.screen] == .modal || modes[result.screen] == .popover
            edge(from, screen, "", presented: presented)
        }
        for link in crawl.dead {
            let tab = tabOfScreen[link.from] ?? nil
            guard let source = crawl.screens.first(where: { $0.url == link.from }) else { continue }
            let from = node(source.route, tab: tab)
            // A dead link that matched a route marks the route's node; one that matched none is a node of its own.
            if let route = crawl.links.first(where: { $0.from == link.from && $0.url == link.url })?.route {
                let to = node(route, tab: tab)
                if let index = nodes.firstIndex(where: { $0.id == to }) { nodes[index].dead = true }
            } else {
                edge(from, node(link.url, tab: nil, dead: true), link.title, presented: false)
            }
        }
    }

    /// Graphviz's language: `dot -Tsvg` draws it. Tabs are clusters; presented (modal, popover)
    /// edges are dashed, actions are boxes with rounded corners, dead links red.
    package var dot: String {
        var out = ["digraph flow {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\", fontsize=10];",
                   "  edge [fontname=\"Helvetica\", fontsize=9];"]
        func line(_ node: Node) -> String {
            var attributes = ["label=\(quoted(node.label))"]
            if node.dead { attributes.append("color=red, fontcolor=red") }
            if node.action { attributes.append("style=rounded") }
            return "\(node.id) [\(attributes.joined(separator: ", "))];"
        }
        for index in tabs.indices {
            let members = nodes.filter { $0.tab == index }
            guard !members.isEmpty else { continue }
            let number = TabNumber.number(of: index)
            out.append("  subgraph cluster_tab\(number) {")
            out.append("    label=\(quoted(tabLabels[index]));")
            for node in members { out.append("    " + line(node)) }
            out.append("  }")
        }
        for node in nodes where node.tab == nil || !tabs.indices.contains(node.tab!) { out.append("  " + line(node)) }
        for edge in edges {
            var attributes = ["label=\(quoted(edge.label))"]
            if edge.presented { attributes.append("style=dashed") }
            out.append("  \(edge.from) -> \(edge.to) [\(attributes.joined(separator: ", "))];")
        }
        out.append("}")
        return out.joined(separator: "\n")
    }

    /// A Mermaid flowchart: tabs are subgraphs, presented edges dotted, dead links red.
    package var mermaid: String {
        var out = ["flowchart LR"]
        func line(_ node: Node) -> String {
            let text = mermaidText(node.label)
            if node.dead { return "\(node.id){{\"\(text)\"}}" }
            if node.action { return "\(node.id)(\"\(text)\")" }
            return "\(node.id)[\"\(text)\"]"
        }
        for index in tabs.indices {
            let members = nodes.filter { $0.tab == index }
            guard !members.isEmpty else { continue }
            let number = TabNumber.number(of: index)
            out.append("  subgraph tab\(number) [\"\(mermaidText(tabLabels[index]))\"]")
            for node in members { out.append("    " + line(node)) }
            out.append("  end")
        }
        for node in nodes where node.tab == nil || !tabs.indices.contains(node.tab!) { out.append("  " + line(node)) }
        for edge in edges {
            let arrow = edge.presented ? "-.->" : "-->"
            let label = edge.label.isEmpty ? "" : "|\"\(mermaidText(edge.label))\"|"
            out.append("  \(edge.from) \(arrow)\(label) \(edge.to)")
        }
        let dead = nodes.filter(\.dead).map(\.id)
        if !dead.isEmpty {
            out.append("  classDef dead stroke:#d00,color:#d00")
            out.append("  class \(dead.joined(separator: ",")) dead")
        }
        return out.joined(separator: "\n")
    }

    private func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out + "\""
    }

    /// Mermaid has no escape inside a quoted label but its entity codes.
    private func mermaidText(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\"": out += "#quot;"
            case "#": out += "#35;"
            case "\n": out += " "
            default: out.append(character)
            }
        }
        return out
    }
}
