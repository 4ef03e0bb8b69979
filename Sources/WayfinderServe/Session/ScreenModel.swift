import OrderedCollections
import Wayfinder
import WayfinderLua

/// What the simulator page draws, as plain data: the layers of the phone (the root's visible
/// stack, each modal stack as a sheet, the popover as a bubble), each with its stack (for the
/// navigation bar and its back button) and its top screen as `render()` gave it (title, lines,
/// links, each link marked when it opens outside the app), the tab bar, and the tree as the
/// devtools show it. It reads the app through its host alone: the tree as `tree` gives it, each
/// entry's controller and saved title, and renders through `RenderMemory`, which says which
/// screens are rendered again. The other entries are named by the title their last render gave,
/// a restored entry not made yet by the title it was saved with, else by its URL.
struct ScreenModel {
    /// The page's phone.
    var screen: Value
    /// The devtools' tree.
    var tree: Value
    /// The screens rendered, by URL, with their links: what the flow graph learns from.
    var rendered: [(url: String, links: [RenderedScreen.Link])]

    init(host: WayfinderHost, renders: RenderMemory) {
        let builder = Builder(host: host, renders: renders)
        screen = builder.screen()
        tree = builder.tree()
        rendered = builder.rendered
    }

    /// The model of an app that is not loaded (its scripts fail): nothing to show.
    static let empty: (screen: Value, tree: Value) = (
        ["app": .null, "layers": [], "tabs": .null, "visible": .null, "pending": .null],
        ["root": .null, "modals": [], "popover": .null, "visible": .null, "pending": .null]
    )

    private final class Builder {
        let host: WayfinderHost
        let renders: RenderMemory
        let snapshot: NavigationSnapshot
        var rendered: [(url: String, links: [RenderedScreen.Link])] = []

        init(host: WayfinderHost, renders: RenderMemory) {
            self.host = host
            self.renders = renders
            snapshot = host.tree
        }

        func screen() -> Value {
            // The layers first: a screen rendered on top names itself by this render's title in
            // the stacks and the tab bar.
            var layers: [Value] = []
            var tabs: Value = .null
            switch snapshot.root {
            case .stack(let entries):
                layers.append(layer("root", entries))
            case .tabs(let stacks, let selected):
                layers.append(layer("root", stacks.indices.contains(selected) ? stacks[selected] : []))
            }
            for modal in snapshot.modals { layers.append(layer("modal", modal)) }
            if let popover = snapshot.popover { layers.append(layer("popover", [popover])) }
            if case .tabs(let stacks, let selected) = snapshot.root {
                tabs = .array(stacks.enumerated().map { index, stack in
                    [
                        "number": .int(Int64(index + 1)), "title": .string(tabTitle(stack)),
                        "url": stack.first.map { .string($0.url) } ?? .null, "selected": .bool(index == selected),
                    ]
                })
            }
            return [
                "app": .string(host.config.name ?? host.stateName), "layers": .array(layers), "tabs": tabs,
                "visible": snapshot.visible.map { .string($0.url) } ?? .null, "pending": pending,
            ]
        }

        func tree() -> Value {
            let visible = snapshot.visible?.id
            func entries(_ list: [NavigationSnapshot.Entry]) -> Value {
                .array(list.map { entry in
                    ["url": .string(entry.url), "title": .string(title(of: entry)), "made": .bool(entry.isLoaded),
                     "visible": .bool(entry.id == visible)]
                })
            }
            let root: Value
            switch snapshot.root {
            case .stack(let list):
                root = ["kind": "stack", "entries": entries(list)]
            case .tabs(let stacks, let selected):
                root = ["kind": "tabs", "selected": .int(Int64(selected + 1)),
                        "tabs": .array(stacks.map { ["title": .string(tabTitle($0)), "entries": entries($0)] })]
            }
            return [
                "root": root, "modals": .array(snapshot.modals.map(entries)),
                "popover": snapshot.popover.map { entries([$0]) } ?? .null,
                "visible": snapshot.visible.map { .string($0.url) } ?? .null, "pending": pending,
            ]
        }

        /// The open a guard keeps waiting, if any: its URL and whether it came from outside.
        var pending: Value {
            guard let open = host.pendingOpen else { return .null }
            return ["url": .string(open.request.url), "from_outside": .bool(open.request.fromOutside)]
        }

        /// A layer: its stack as the navigation bar needs it, and its top screen.
        private func layer(_ kind: String, _ entries: [NavigationSnapshot.Entry]) -> Value {
            let top = entries.last.map(screen(of:)) ?? .null
            var fields = OrderedDictionary<String, Value>()
            fields["kind"] = .string(kind)
            fields["stack"] = .array(entries.map { ["url": .string($0.url), "title": .string(title(of: $0)), "made": .bool($0.isLoaded)] })
            fields["screen"] = top
            return .map(fields)
        }

        private func screen(of entry: NavigationSnapshot.Entry) -> Value {
            var fields = OrderedDictionary<String, Value>()
            fields["url"] = .string(entry.url)
            guard let controller = host.controller(for: entry) else {
                fields["title"] = .string(title(of: entry))
                fields["problem"] = "this screen is not made yet (it is made when it becomes visible)"
                return .map(fields)
            }
            switch renders.top(entry, controller, in: host) {
            case .noRenderMethod:
                fields["title"] = .string(host.describe(controller))
                fields["problem"] = "this controller has no render method"
            case .failed(let error):
                fields["title"] = .string(host.describe(controller))
                fields["problem"] = .string("render failed: " + error.message)
                fields["traceback"] = error.traceback.map(Value.string) ?? .null
            case .screen(let screen):
                rendered.append((entry.url, screen.links))
                fields["title"] = .string(screen.title ?? entry.url)
                fields["lines"] = .array(screen.lines.map(Value.string))
                fields["links"] = .array(screen.links.map { link in
                    ["title": .string(link.title), "url": .string(link.url), "external": .bool(host.isExternal(link.url))]
                })
                if !screen.fields.isEmpty || !screen.buttons.isEmpty { ScreenModel.addForm(of: screen, to: &fields) }
            }
            return .map(fields)
        }

        /// A tab's label, the same in the tab bar and the tree: its title in `wf.app`, else what
        /// names its first screen.
        private func tabTitle(_ stack: [NavigationSnapshot.Entry]) -> String {
            guard let first = stack.first else { return "(empty)" }
            return host.tabTitle(of: stack) ?? title(of: first)
        }

        /// What names an entry that is not on top: see the type's comment.
        private func title(of entry: NavigationSnapshot.Entry) -> String {
            guard let controller = host.controller(for: entry) else { return host.savedTitle(of: entry) ?? entry.url }
            if case .screen(let screen) = renders.under(entry, controller, in: host), let title = screen.title { return title }
            return entry.url
        }
    }
}
