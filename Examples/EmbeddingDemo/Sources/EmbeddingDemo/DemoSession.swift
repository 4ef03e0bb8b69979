import Foundation
import Wayfinder
import WayfinderLua

/// A short session with the restaurant, driven from Swift as an app's UI would drive it: after
/// each step, what the presenter shows. The presenter follows the host's events alone; after every
/// step the session holds its tree against the host's. The host lives on the main actor, as a UI
/// app's would: one host per isolation domain.
@MainActor
final class DemoSession {
    let host: WayfinderHost
    let presenter = Presenter()
    let points = LoyaltyPoints()
    /// Whether the presenter's tree was the host's after every step.
    private(set) var keptStep = true

    init(stateFile: String) throws {
        var configuration = WayfinderHost.Configuration(app: try DemoSession.restaurant())
        configuration.stateStore = FileStateStore(path: stateFile)
        configuration.lentModules = [points.module]
        configuration.nativeScreens = ["Camera": { request in CameraScreen(request) }]
        configuration.warn = { print("warning: " + $0) }
        host = try WayfinderHost(configuration)
        host.observe(presenter.apply)
    }

    /// The package's directory, and the repository around it.
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let repository = package.deletingLastPathComponent().deletingLastPathComponent()

    /// The restaurant's Lua files and the demo's own, held in memory as an app holds its bundle's
    /// resources; `demo` stands in for the demo's entry file (a reload gives it edited).
    static func restaurant(demo: String? = nil) throws -> AppSource {
        var sources: [String: String] = [:]
        let directory = repository.appendingPathComponent("lua/examples/restaurant").standardizedFileURL
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "lua" else { continue }
            sources[String(file.standardizedFileURL.path.dropFirst(directory.path.count + 1))] = try String(contentsOf: file, encoding: .utf8)
        }
        sources["demo.lua"] = try demo ?? demoSource()
        return try AppSource(sources: sources, entry: "demo.lua", name: "restaurant")
    }

    static func demoSource() throws -> String {
        try String(contentsOf: package.appendingPathComponent("lua/demo.lua"), encoding: .utf8)
    }

    // MARK: What the presenter shows

    /// A screen's title: what its controller renders (a native screen's own title), else what it
    /// was saved with, else its URL.
    func title(of entry: NavigationSnapshot.Entry) -> String {
        guard let controller = host.controller(for: entry) else { return host.savedTitle(of: entry) ?? entry.url }
        return (try? host.render(controller))??.title ?? host.describe(controller)
    }

    /// What the visible screen shows: its title, lines and links.
    func screen(of entry: NavigationSnapshot.Entry) -> [String] {
        guard let controller = host.controller(for: entry), let rendered = try? host.render(controller) else { return [] }
        return [title(of: entry)] + rendered.lines.map { "  " + $0 } + rendered.links.map { "  -> \($0.title): \($0.url)" }
    }

    /// The visible screen's controller.
    var visible: LuaController? { host.tree.visible.flatMap(host.controller(for:)) }

    // MARK: The stream of events

    /// The host's events as a stream, read by a task on the main actor as a SwiftUI view's `.task`
    /// reads them: it hears every event after the call that caused it, in order, and ends when
    /// the host is released, answering what it heard.
    func listen() -> Task<[NavigationEvent], Never> {
        let events = host.events
        return Task { @MainActor in
            var heard: [NavigationEvent] = []
            for await event in events { heard.append(event) }
            return heard
        }
    }

    // MARK: The session

    func step(_ name: String, _ body: () throws -> Void) {
        print("== " + name)
        do { try body() } catch { print("! \(error)") }
        presenter.lines(title: title(of:), screen: screen(of:)).forEach { print($0) }
        if presenter.snapshot != host.tree {
            print("! the presenter's tree is not the host's")
            keptStep = false
        }
        print("")
    }

    func run() {
        step("launch") { try host.launch() }
        step("open tt://food/pizza") { try host.open("tt://food/pizza") }
        step("open tt://loyalty") { try host.open("tt://loyalty") }
        step("Swift calls the loyalty screen's earn(120)") {
            let balance = try host.call("earn", on: visible!, with: [120])
            print("earn answered \(balance); Swift keeps \(points.balance) points")
        }
        step("Swift calls earn(-5): the lent module refuses") { try host.call("earn", on: visible!, with: [-5]) }
        step("follow the link to the camera") { try host.open("tt://camera/4") }
        step("the camera (a screen Swift made) turns its flash on") { (visible?.nativeScreen as? CameraScreen)?.flash = true }
        step("relaunch: the state saved, the app loaded again and restored") { try host.relaunch() }
        step("dismiss") { try host.dismiss() }
        step("reload an edit with a mistake: refused, nothing changes") {
            let broken = try Self.demoSource().replacingOccurrences(of: "function Loyalty:init()", with: "function Loyalty:init(")
            try host.reload(from: try Self.restaurant(demo: broken))
        }
        step("reload an edit that renames the screen") {
            let renamed = try Self.demoSource().replacingOccurrences(of: "title = \"Loyalty\"", with: "title = \"Loyalty club\"")
            let report = try host.reload(from: try Self.restaurant(demo: renamed))
            print("reloaded: " + report.changes.summary)
        }
        step("back") { try host.back() }
        print(keptStep ? "the presenter kept step with the host at every step" : "the presenter lost step with the host")
    }
}
