/// The fields of `wf.app { ... }`, declared once: lua/wayfinder/app.lua checks a script's table
/// against them, AppBinding reads it by them, and the LuaLS definitions' `wayfinder.app_config`
/// must list them (a test compares the two). Three of them are settings `wf.navigator` reads and
/// writes too (`settings`, whose check lives in Bindings/AppSetting.swift).
package enum AppOption: String, CrossingRecord {
    case name, tabs, root, persistence, expiration, version, migrate
    case pendingExpiration = "pending_expiration"
    case linkPrefixes = "link_prefixes"

    package var luaType: String? {
        switch self {
        case .name, .root, .persistence: "string"
        case .tabs, .linkPrefixes: "table"
        case .expiration, .version, .pendingExpiration: "number"
        case .migrate: "function"
        }
    }

    /// The options `nav.<name>` reads and writes as well (`nav.persistence = "top"`).
    static let settings: [AppOption] = [.persistence, .expiration, .pendingExpiration]

    /// The setting named `name`, or nil when no setting is named so.
    static func setting(named name: String) -> AppOption? {
        AppOption(rawValue: name).flatMap { settings.contains($0) ? $0 : nil }
    }
}

/// The fields of a tab `wf.app` is given as a table, `{ url = ..., title = ... }`.
package enum AppTabField: String, CrossingRecord {
    case url, title
    package var luaType: String? { "string" }
}
