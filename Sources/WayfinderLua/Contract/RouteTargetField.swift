/// What lua/wayfinder/map.lua tells `native.add` of a route's target, by name: the class's name
/// (`wf.controller`'s), and the native screen's when the class is one `wf.native` made. Only the
/// bundled module writes it; the host reads it.
enum RouteTargetField: String, CrossingRecord {
    case `class`, native
    var luaType: String? { "string" }
}
