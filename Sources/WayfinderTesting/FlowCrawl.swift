import Wayfinder
import WayfinderLua

/// Every screen an app's links reach, breadth first from its launch tree: the screens, the links
/// between them, the links that lead nowhere and the routes no link reached.
///
/// Each link is opened in a fresh app (loaded, launched, and led to the linking screen by the
/// same steps that reached it first), so what one screen did (an action, a sign-in) never
/// changes what another screen's links do, and a link that fails leaves nothing behind.
package struct FlowCrawl {
    /// One way of reaching a screen from the launch tree.
    package enum Step: Equatable, Sendable {
        case select(Int)
        case open(String)
        /// Pressing the visible screen's button with this title, its fields set to their samples.
        case press(String)
    }

    package struct Screen: Equatable, Sendable {
        package var url: String
        package var route: String
        package var title: String?
        /// The tab (from 0) that was selected when it was first reached; nil for an app without tabs.
        package var tab: Int?
        /// Whether it was reached inside a modal or a popover.
        package var presented: Bool
    }

    /// A link of a rendered screen, and where it went.
    package struct Link: Equatable, Sendable {
        package var from: String
        package var fromRoute: String
        package var title: String
        package var url: String
        /// The route the link's URL matched; nil for a dead or external link.
        package var route: String?
        /// The route's mode (`modal` and `popover` edges are drawn apart).
        package var mode: NavigationMode?
    }

    package struct DeadLink: Equatable, Sendable {
        package var from: String
        package var title: String
        package var url: String
        package var reason: String
    }

    package var screens: [Screen] = []
    package var links: [Link] = []
    package var dead: [DeadLink] = []
    package var external: [Link] = []
    /// Routes, in precedence order, that neither a link nor the launch tree reached.
    package var unreached: [String] = []
    /// Every route in precedence order with its mode, so the graph can name action routes.
    package var routeModes: [(pattern: String, mode: NavigationMode)] = []
    /// The tab URLs of `wf.app`, for the graph's grouping.
    package var tabs: [String] = []
    /// The tabs' titles in `wf.app`, by URL, which name the graph's groups.
    package var tabTitles: [String: String] = [:]
    /// Where actions (routes of mode `none`) led: the action's route and the route of the screen
    /// shown after it, when that is another screen than the one its link was on.
    package var actionResults: [(action: String, screen: String)] = []
    /// True when `max` stopped the crawl before every link was followed.
    package var truncated = false
    /// Every button pressed, and the URL shown after it.
    package var presses: [Press] = []

    /// A button of a rendered screen, and what was shown after it was pressed.
    package struct Press: Equatable, Sendable {
        package var from: String
        package var title: String
        package var method: String
        package var shown: String?
    }

    /// Sets each field of the visible screen that declares a sample to it, then presses `title`.
    static func pressWithSamples(_ title: String, in host: WayfinderHost) throws {
        for field in try host.visibleScreen()?.fields ?? [] {
            if let sample = field.sample { try host.fill(field.name, with: sample) }
        }
        guard let controller = host.visibleController else { return }
        try host.press(title, on: controller)
    }

    /// Crawls the app `load` makes (a fresh host each time it is called), from its launch tree and
    /// the URLs in `from`. `allURLs` follows every distinct URL; otherwise links that differ only
    /// in their query values are followed once. At most `max` screens are visited.
    package static func run(load: () throws -> WayfinderHost, from: [String] = [], allURLs: Bool = false, max: Int = 1000) throws -> FlowCrawl {
        var crawl = FlowCrawl()
        var queue = [(path: [Step], screen: RenderedScreen?, url: String)]()
        var seenScreens = Set<String>()
        var followed = Set<String>()
        var reachedRoutes = Set<String>()

        let first = try load()
        crawl.routeModes = first.app.routes.routes.map { ($0.pattern.text, $0.options.mode) }
        crawl.tabs = first.config.tabs
        crawl.tabTitles = first.config.tabTitles

        /// Launches a fresh app and replays `path`; the host, or the reason it went wrong. The
        /// controller visible before the last step is kept in `beforeLastStep`.
        var beforeLastStep: LuaController?
        func replay(_ path: [Step]) throws -> (WayfinderHost, String?) {
            let host = try load()
            host.warn = { _ in }
            host.openExternal = { _ in }
            do {
                try host.launch()
                for (index, step) in path.enumerated() {
                    if index == path.count - 1 { beforeLastStep = host.app.navigator.top }
                    switch step {
                    case .select(let tab): try host.selectTab(at: tab)
                    case .open(let url): try host.open(url)
                    case .press(let title): try pressWithSamples(title, in: host)
                    }
                }
            } catch {
                return (host, OpenFailure.reason(error, url: path.last.map(describe) ?? "the launch tree"))
            }
            return (host, nil)
        }

        func routeOf(_ host: WayfinderHost, _ url: String) -> Route<LuaTarget>? {
            if case .matched(let match)? = try? host.app.routes.match(url) { return match.route }
            return nil
        }

        /// Renders what `host` shows and records it as a screen when it is new.
        func visit(_ host: WayfinderHost, path: [Step]) throws(ScriptError) -> Bool {
            guard let entry = host.app.navigator.tree.visible, let controller = entry.controller else { return true }
            let url = entry.url
            guard !seenScreens.contains(url) else { return true }
            let screen = try host.render(controller)
            seenScreens.insert(url)
            let route = routeOf(host, url)?.pattern.text ?? "?"
            reachedRoutes.insert(route)
            let tree = host.app.navigator.tree
            crawl.screens.append(Screen(url: url, route: route, title: screen?.title ?? controller.renderedTitle,
                                        tab: tree.selectedTab, presented: tree.popover != nil || !tree.modals.isEmpty))
            queue.append((path, screen, url))
            return true
        }

        let (launched, problem) = try replay([])
        if let problem { throw ScriptError(kind: .runtime, message: problem) }
        var starts = [[Step]]()
        if case .tabs(let stacks, _) = launched.app.navigator.tree.root {
            starts = stacks.indices.map { [.select($0)] }
        } else {
            starts = [[]]
        }
        starts += from.map { [.open($0)] }
        for path in starts {
            let (host, problem) = try replay(path)
            if let problem {
                crawl.dead.append(DeadLink(from: "the launch tree", title: "", url: path.last.map(describe) ?? "", reason: problem))
                continue
            }
            do {
                _ = try visit(host, path: path)
            } catch {
                crawl.dead.append(DeadLink(from: "the launch tree", title: "", url: host.app.navigator.url ?? "", reason: error.description))
            }
        }

        var next = 0
        while next < queue.count {
            let (path, screen, url) = queue[next]
            next += 1
            let fromRoute = crawl.screens.first(where: { $0.url == url })?.route ?? "?"
            for link in screen?.links ?? [] {
                let host = first
                let parsed = try? NavigationURL(link.url)
                if let parsed, host.app.navigator.isExternal(parsed) {
                    crawl.external.append(Link(from: url, fromRoute: fromRoute, title: link.title, url: link.url))
                    continue
                }
                let route: Route<LuaTarget>
                do {
                    // A type function's error is the link's reason, not a silent no-match.
                    switch try host.app.routes.match(link.url) {
                    case .matched(let match): route = match.route
                    case .noMatch(let reason):
                        crawl.dead.append(DeadLink(from: url, title: link.title, url: link.url, reason: reason))
                        continue
                    }
                } catch {
                    crawl.dead.append(DeadLink(from: url, title: link.title, url: link.url, reason: String(describing: error)))
                    continue
                }
                reachedRoutes.insert(route.pattern.text)
                crawl.links.append(Link(from: url, fromRoute: fromRoute, title: link.title, url: link.url,
                                        route: route.pattern.text, mode: route.options.mode))
                let key = allURLs ? link.url : route.pattern.text + " " + withoutQuery(link.url)
                guard !followed.contains(key) else { continue }
                followed.insert(key)
                if crawl.screens.count >= max {
                    crawl.truncated = true
                    continue
                }
                let (opened, problem) = try replay(path + [.open(link.url)])
                if let problem {
                    crawl.dead.append(DeadLink(from: url, title: link.title, url: link.url, reason: problem))
                    continue
                }
                // A screen the action showed is known by its controller, not its URL: it may be
                // a new screen of the linking screen's own URL.
                if route.options.mode == .none, let shown = opened.app.navigator.url, opened.app.navigator.top !== beforeLastStep,
                   let screenRoute = routeOf(opened, shown)?.pattern.text {
                    crawl.actionResults.append((route.pattern.text, screenRoute))
                }
                do {
                    _ = try visit(opened, path: path + [.open(link.url)])
                } catch {
                    crawl.dead.append(DeadLink(from: url, title: link.title, url: link.url, reason: error.description))
                }
            }
            // Buttons, pressed as the screen's fields are (or with their declared samples): a
            // method that fails is a dead end, a screen it shows is crawled as any other.
            for button in screen?.buttons ?? [] {
                let key = fromRoute + " " + withoutQuery(url) + " press " + button.title
                guard !followed.contains(key) else { continue }
                followed.insert(key)
                if crawl.screens.count >= max {
                    crawl.truncated = true
                    continue
                }
                let steps = path + [.press(button.title)]
                let (pressed, problem) = try replay(steps)
                if let problem {
                    crawl.dead.append(DeadLink(from: url, title: button.title, url: describe(.press(button.title)), reason: problem))
                    continue
                }
                crawl.presses.append(Press(from: url, title: button.title, method: button.method, shown: pressed.app.navigator.url))
                do {
                    _ = try visit(pressed, path: steps)
                } catch {
                    crawl.dead.append(DeadLink(from: url, title: button.title, url: describe(.press(button.title)), reason: error.description))
                }
            }
        }
        // A route a web link opens (`link_prefixes`) is reached from outside the app.
        let webLinks = WebLinks(routes: first.app.routes.routes.map { ($0.pattern.text, $0.options.external) }, prefixes: first.config.linkPrefixes)
        reachedRoutes.formUnion(webLinks.links.map(\.route))
        crawl.unreached = crawl.routeModes.map(\.pattern).filter { !reachedRoutes.contains($0) }
        return crawl
    }

    private static func describe(_ step: Step) -> String {
        switch step {
        case .select(let tab): return "tab \(TabNumber.number(of: tab))"
        case .open(let url): return url
        case .press(let title): return "the button '\(title)'"
        }
    }

    /// The URL with its query taken out (the fragment kept): links that differ only there share a
    /// route shape.
    static func withoutQuery(_ url: String) -> String {
        guard let question = url.firstIndex(of: "?") else { return url }
        let fragment = url[question...].firstIndex(of: "#").map { String(url[$0...]) } ?? ""
        return String(url[..<question]) + fragment
    }

    /// Whether the crawl found something wrong: a dead link or a route nothing reached.
    package var failed: Bool { !dead.isEmpty || !unreached.isEmpty }
}
