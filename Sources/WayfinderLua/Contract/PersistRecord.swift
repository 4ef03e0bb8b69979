/// What `persist` in lua/wayfinder/navigator.lua answers for a controller when the tree is saved
/// (false when it is not saved at all), declared once: the Lua side writes the record by these
/// names, `LuaNavigatorBridge.record(of:at:)` reads it by them.
enum PersistRecord: String, CrossingRecord {
    /// The state its `persist(state)` hook wrote.
    case state
    /// Whether the controller is important (a field, or a method answering).
    case important
    /// Its context's Swift layer.
    case context
    /// Its selected item and scroll anchor by model identifier, a `StateDocument.ModelField`
    /// record (the one a restored or remade controller's action carries).
    case model
}
