/// The fields of a match the host hands `make` and `fragment` in lua/wayfinder/navigator.lua,
/// declared once. `fragment` gets them as a table by these names; `make`, on the path of every
/// open, gets them as arguments after its first three, in this list's order, and checks when it
/// loads that its parameters are these fields in this order (it asks for each by its symbol, so
/// a field renamed here is renamed there, and one moved fails its check).
enum MakeField: String, CrossingRecord {
    case url, pattern, params
    /// The URL's query joined by the request's (the Lua side adds an action's values by reference).
    case query
    case fragment
    case paramNames = "param_names"
    case selectorOption = "selector_option"
    case mode
    /// The saved state (a restored entry's, or an action's `state`).
    case state

    /// `allCases`, made once: the synthesized property builds a new array at every use.
    static let inOrder = allCases
}
