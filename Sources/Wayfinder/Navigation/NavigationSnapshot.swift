/// The tree as plain data, in the shape `nav:tree()` returns and `--json` prints (docs/lua-api.md):
/// `{ root = { kind = "tabs", selected = 1, tabs = {...} }, modals = {...}, popover = ..., visible = url }`.
/// Tab numbers are 1-based, as Lua counts.
extension NavigationTree {
    public var snapshot: Value {
        var fields: [(String, Value)] = []
        switch root {
        case .stack(let stack):
            fields.append(("root", Self.snapshot(of: stack)))
        case .tabs(let tabs, let selected):
            fields.append(("root", ["kind": "tabs", "selected": .int(TabNumber.number(of: selected)), "tabs": .array(tabs.map(Self.snapshot(of:)))]))
        }
        fields.append(("modals", .array(modals.map(Self.snapshot(of:)))))
        if let popover { fields.append(("popover", Self.snapshot(of: popover))) }
        fields.append(("visible", visible.map { .string($0.url) } ?? .null))
        return .map(.init(uniqueKeysWithValues: fields))
    }

    private static func snapshot(of stack: NavigationStack<Controller>) -> Value {
        ["kind": "stack", "entries": .array(stack.entries.map(snapshot(of:)))]
    }

    private static func snapshot(of entry: NavigationEntry<Controller>) -> Value {
        ["url": .string(entry.url), "loaded": .bool(entry.isLoaded)]
    }
}
