import Foundation
import Wayfinder
import WayfinderLua

/// Which routes of each app the specs opened (`wayfinder test --coverage`): every app a spec
/// launches through `wf.testing` reports its routes and each route the navigator made a
/// controller for, ran an action of, or handed a fragment to.
package final class RouteCoverage {
    package struct App: Equatable {
        /// The app's directory or file, as launched.
        package var path: String
        /// Every route any launch or reload of the app had, in precedence order (routes only a
        /// later version had come after).
        package var routes: [String]
        package var opened: Set<String>

        package var neverOpened: [String] { routes.filter { !opened.contains($0) } }
    }

    /// By the app's full path, in the order first launched.
    package private(set) var apps: [App] = []

    package init() {}

    /// Starts counting for `host`: its routes are listed, and its navigator reports each route
    /// it opens.
    /// `path` names the app (a copy's original, so copies count toward it).
    func watch(_ host: AppHost, as path: String) {
        let routes = host.routes.routes.map(\.pattern.text)
        if let index = apps.firstIndex(where: { $0.path == path }) {
            // A spec that edits a copy and reloads may add or remove routes: every route any
            // version had counts.
            apps[index].routes += routes.filter { !apps[index].routes.contains($0) }
        } else {
            apps.append(App(path: path, routes: routes, opened: []))
        }
        var factory = host.navigator.factory
        let make = factory.make
        // Counted once the route's controller (or action, or fragment method) ran without error.
        factory.make = { [weak self] match, request in
            let controller = try make(match, request)
            self?.record(match.route.pattern.text, in: path)
            return controller
        }
        if let handleFragment = factory.handleFragment {
            factory.handleFragment = { [weak self] controller, match in
                try handleFragment(controller, match)
                self?.record(match.route.pattern.text, in: path)
            }
        }
        host.navigator.factory = factory
    }

    private func record(_ pattern: String, in path: String) {
        guard let index = apps.firstIndex(where: { $0.path == path }) else { return }
        apps[index].opened.insert(pattern)
    }

    /// A path inside the working directory is shown relative to it.
    private static func shown(_ path: String) -> String {
        let directory = FileAccess.realPath(FileManager.default.currentDirectoryPath) ?? FileManager.default.currentDirectoryPath
        return path.hasPrefix(directory + "/") ? String(path.dropFirst(directory.count + 1)) : path
    }

    /// The report: per app, how many routes were opened, then the ones never opened.
    package var lines: [String] {
        var out = [String]()
        for app in apps {
            let opened = app.routes.filter { app.opened.contains($0) }.count
            out.append("route coverage of \(Self.shown(app.path)): \(opened) of \(app.routes.count) routes opened")
            out += app.neverOpened.map { "  never opened: \($0)" }
        }
        if apps.isEmpty { out.append("route coverage: no spec launched an app (wf.testing.launch)") }
        return out
    }
}
