import Wayfinder

/// `wayfinder.native.app`: records what `wf.app { ... }` declared. lua/wayfinder/app.lua checks
/// the table's shape against the fields exported here; the values are checked here.
enum AppBinding {
    static let functions: [(String, LuaBinding)] = [("configure", configure), ("fields", fields), ("state_fields", stateFields)]

    /// fields() -> { options = { name, symbol, type, host, ... }, tab = { ... } }: `wf.app`'s fields and a tab's.
    static let fields: LuaBinding = { L in
        LuaCall.run(L) { _ in [["options": AppOption.exported, "tab": AppTabField.exported]] }
    }

    /// state_fields() -> the saved state's records as a migration sees it (`MigrationTree`), asked
    /// for at the first migration only.
    static let stateFields: LuaBinding = { L in
        LuaCall.run(L) { _ in [MigrationTree.exported] }
    }

    /// configure(config, migrate) -> true | nil, reason
    static let configure: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let fields = try call.value(1, name: "config")
            var config = AppConfig()
            if let name = fields[AppOption.name.rawValue]?.stringValue {
                guard !name.isEmpty else { throw Refusal("wf.app: name must be a non-empty string") }
                config.name = name
            }
            config.root = fields[AppOption.root.rawValue]?.stringValue
            if config.root != nil && fields[AppOption.tabs.rawValue] != nil { throw Refusal("wf.app: give either root or tabs, not both") }
            // A tab is a URL, or { url = ..., title = ... } with a fixed title.
            for tab in fields[AppOption.tabs.rawValue]?.arrayValue ?? [] {
                guard let url = tab.stringValue ?? tab[AppTabField.url.rawValue]?.stringValue else { continue }
                config.tabs.append(url)
                if let title = tab[AppTabField.title.rawValue]?.stringValue { config.tabTitles[url] = title }
            }
            for url in config.tabs + (config.root.map { [$0] } ?? []) {
                do { _ = try NavigationURL(url) } catch { throw Refusal("wf.app: '\(url)' is not a URL: \(error)") }
            }
            for setting in AppOption.settings {
                if let value = fields[setting.rawValue] { try setting.apply(value, to: &config, as: "wf.app: \(setting.rawValue)") }
            }
            if let value = fields[AppOption.version.rawValue] {
                guard case .int(let version) = value, version >= 1, version <= Int64(Int.max) else {
                    throw Refusal("wf.app: version must be an integer from 1, got \(value)")
                }
                config.version = Int(version)
            }
            if let given = fields[AppOption.linkPrefixes.rawValue] {
                config.linkPrefixes = try linkPrefixes(given)
            }
            config.migration = call.definition(ofFunctionAt: 2)
            // Charged before it replaces the settings before it (whose charge goes with them), so
            // settings that do not fit leave the old ones in place.
            let kept = [config.name, config.root, config.migration].reduce(0) { $0 + ($1.map(RetainedCost.text) ?? 0) }
                + config.tabs.reduce(0) { $0 + RetainedCost.entry(url: $1) }
                + config.tabTitles.values.reduce(0) { $0 + RetainedCost.text($1) }
                + config.linkPrefixes.pairs.reduce(0) { $0 + RetainedCost.text($1.outside) + RetainedCost.text($1.inside) }
            host.keptCharges.config = try ExternalCharge(kept, to: call.state)
            host.config = config
            return [.bool(true)]
        }
    }

    /// `link_prefixes = { [outside] = inside, ... }`: text keys to text values, each a prefix.
    private static func linkPrefixes(_ given: Value) throws -> LinkPrefixes {
        let shape = "wf.app: link_prefixes must map outside prefixes to app prefixes ({ [\"https://shop.example.com/\"] = \"tt://\" })"
        var prefixes: [String: String] = [:]
        switch given {
        case .array(let items) where items.isEmpty: break
        case .map(let pairs):
            for (outside, inside) in pairs {
                guard let inside = inside.stringValue else { throw Refusal(shape + "; '\(outside)' maps to \(inside.typeDescription)") }
                prefixes[outside] = inside
            }
        default: throw Refusal(shape)
        }
        do { return try LinkPrefixes(prefixes) } catch { throw Refusal("wf.app: " + error.description) }
    }
}
