/// The fields lua/wayfinder/navigator.lua sets on a controller, declared once: `url`, `query` and
/// `context` on every one before its constructor runs, `fragment` when a fragment URL hands one
/// over as data to a controller with no `fragment` method. The host reads a controller's URL by
/// `url`, the Lua side sets and reads them by these names, and the LuaLS definitions'
/// `wayfinder.controller` must list them (a test compares the two).
package enum ControllerField: String, CrossingRecord {
    case url, query, context, fragment
}
