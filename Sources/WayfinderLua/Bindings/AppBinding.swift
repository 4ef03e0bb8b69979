import Wayfinder

/// `wayfinder.native.app`: records what `wf.app { ... }` declared (checked in lua/wayfinder/app.lua).
enum AppBinding {
    static let functions: [(String, LuaBinding)] = [("configure", configure)]

    static let configure: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let fields = try call.value(1, name: "config")
            var config = AppConfig()
            config.name = fields["name"]?.stringValue
            config.root = fields["root"]?.stringValue
            // A tab is a URL, or { url = ..., title = ... } with a fixed title.
            for tab in fields["tabs"]?.arrayValue ?? [] {
                guard let url = tab.stringValue ?? tab["url"]?.stringValue else { continue }
                config.tabs.append(url)
                if let title = tab["title"]?.stringValue { config.tabTitles[url] = title }
            }
            for url in config.tabs + (config.root.map { [$0] } ?? []) {
                do { _ = try NavigationURL(url) } catch {
                    return [.null, .string("wf.app: '\(url)' is not a URL: \(error)")]
                }
            }
            if let persistence = fields["persistence"]?.stringValue {
                guard let mode = PersistenceMode(rawValue: persistence) else {
                    return [.null, .string("wf.app: unknown persistence '\(persistence)'")]
                }
                config.persistence = mode
            }
            config.expiration = fields["expiration"]?.doubleValue ?? 0
            host.config = config
            return [.bool(true)]
        }
    }
}
