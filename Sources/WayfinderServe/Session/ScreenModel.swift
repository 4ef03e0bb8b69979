import OrderedCollections
import Wayfinder
import WayfinderLua

/// What the simulator page draws, as plain data: the layers of the phone (the root's visible
/// stack, each modal stack as a sheet, the popover as a bubble), each with its stack (for the
/// navigation bar and its back button) and its top screen as `render()` gave it (title, lines,
/// links, each link marked when it opens outside the app), the tab bar, and the tree as the
/// devtools show it. Only the top screen of each layer is rendered; the other entries are named
/// by the title their last render gave, a restored entry not made yet by the title it was saved
/// with, else by its URL.
struct ScreenModel {
    /// The page's phone.
    var screen: Value
    /// The devtools' tree.
    var tree: Value
    /// The screens rendered, by URL, with their links: what the flow graph learns from.
    var rendered: [(url: String, links: [RenderedScreen.Link])]

    init(host: AppHost) {
        let builder = Builder(host: host)
        screen = builder.screen()
        tree = builder.tree()
        rendered = builder.rendered
    }

    /// The model of an app that is not loaded (its scripts fail): nothing to show.
    static let empty: (screen: Value, tree: Value) = (
        ["app": .null, "layers": [], "tabs": .null, "visible": .null],
        ["root": .null, "modals": [], "popover": .null, "visible": .null]
    )

    private final class Builder {
        let host: AppHost
        var rendered: [(url: String, links: [RenderedScreen.Link])] = []

        init(host: AppHost) {
            self.host = host
        }

        func screen() -> Value {
            let tree = host.navigator.tree
            var layers: [Value] = []
            var tabs: Value = .null
            switch tree.root {
            case .stack(let stack):
                layers.append(layer("root", stack.entries))
            case .tabs(let stacks, let selected):
                tabs = .array(stacks.enumerated().map { index, stack in
                    let first = stack.entries.first
                    let fixed = first.flatMap { host.config.tabTitles[$0.url] }
                    return [
                        "number": .int(Int64(index + 1)), "title": .string(fixed ?? first.map(title(of:)) ?? "(empty)"),
                        "url": first.map { .string($0.url) } ?? .null, "selected": .bool(index == selected),
                    ]
                })
                layers.append(layer("root", stacks[selected].entries))
            }
            for modal in tree.modals { layers.append(layer("modal", modal.entries)) }
            if let popover = tree.popover { layers.append(layer("popover", [popover])) }
            return [
                "app": .string(host.config.name ?? host.stateName), "layers": .array(layers), "tabs": tabs,
                "visible": tree.visible.map { .string($0.url) } ?? .null,
            ]
        }

        func tree() -> Value {
            let tree = host.navigator.tree
            let visible = tree.visible
            func entries(_ list: [NavigationEntry<LuaController>]) -> Value {
                .array(list.map { entry in
                    ["url": .string(entry.url), "title": .string(title(of: entry)), "made": .bool(entry.isLoaded),
                     "visible": .bool(entry === visible)]
                })
            }
            let root: Value
            switch tree.root {
            case .stack(let stack):
                root = ["kind": "stack", "entries": entries(stack.entries)]
            case .tabs(let stacks, let selected):
                root = ["kind": "tabs", "selected": .int(Int64(selected + 1)),
                        "tabs": .array(stacks.map { ["entries": entries($0.entries)] })]
            }
            return [
                "root": root, "modals": .array(tree.modals.map { entries($0.entries) }),
                "popover": tree.popover.map { entries([$0]) } ?? .null,
                "visible": visible.map { .string($0.url) } ?? .null,
            ]
        }

        /// A layer: its stack as the navigation bar needs it, and its top screen.
        private func layer(_ kind: String, _ entries: [NavigationEntry<LuaController>]) -> Value {
            var fields = OrderedDictionary<String, Value>()
            fields["kind"] = .string(kind)
            fields["stack"] = .array(entries.map { ["url": .string($0.url), "title": .string(title(of: $0)), "made": .bool($0.isLoaded)] })
            fields["screen"] = entries.last.map(screen(of:)) ?? .null
            return .map(fields)
        }

        private func screen(of entry: NavigationEntry<LuaController>) -> Value {
            var fields = OrderedDictionary<String, Value>()
            fields["url"] = .string(entry.url)
            guard let controller = entry.controller else {
                fields["title"] = .string(title(of: entry))
                fields["problem"] = "this screen is not made yet (it is made when it becomes visible)"
                return .map(fields)
            }
            do {
                guard let screen = try host.render(controller) else {
                    fields["title"] = .string(host.describe(controller))
                    fields["problem"] = "this controller has no render method"
                    return .map(fields)
                }
                rendered.append((entry.url, screen.links))
                fields["title"] = .string(screen.title ?? entry.url)
                fields["lines"] = .array(screen.lines.map(Value.string))
                fields["links"] = .array(screen.links.map { link in
                    ["title": .string(link.title), "url": .string(link.url), "external": .bool(isExternal(link.url))]
                })
            } catch {
                fields["title"] = .string(host.describe(controller))
                fields["problem"] = .string("render failed: " + error.message)
                fields["traceback"] = error.traceback.map(Value.string) ?? .null
            }
            return .map(fields)
        }

        /// What names an entry that is not on top: see the type's comment.
        private func title(of entry: NavigationEntry<LuaController>) -> String {
            guard let controller = entry.controller else { return entry.pending?.saved.title ?? entry.url }
            if let known = controller.renderedTitle { return known }
            return ((try? host.render(controller)) ?? nil)?.title ?? entry.url
        }

        private func isExternal(_ url: String) -> Bool {
            guard let parsed = try? NavigationURL(url) else { return false }
            return host.navigator.isExternal(parsed)
        }
    }
}
