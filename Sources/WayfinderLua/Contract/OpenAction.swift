import Wayfinder

/// The fields of an open's action table (`nav:open { url = ..., ... }`), declared once: the
/// binding reads a script's action by them, the host writes a restored or remade controller's
/// action by them (`context`, and `model`, a `StateDocument.ModelField` record), and
/// lua/wayfinder/navigator.lua checks and reads actions by them. `context` and `model` are read
/// by the Lua side that makes the controller; `url` is open's first argument; `model` is the
/// host's own (a restored list's position), never a script's.
package enum OpenAction: String, CrossingRecord {
    case url, route, params, query, parent, presentation, state, context, animated, transition, model

    package var luaType: String? {
        switch self {
        case .url, .route, .parent, .presentation, .transition: "string"
        case .query, .params: "table"
        case .animated: "boolean"
        case .state, .context, .model: nil
        }
    }

    package static var forScripts: [OpenAction] { allCases.filter { $0 != .model } }
}
