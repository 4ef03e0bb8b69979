/// The fields of `wf.context { name = ..., inner = ..., fields = ... }`, declared once:
/// lua/wayfinder/context.lua checks a script's table against them and reads it by them, and the
/// LuaLS definitions' `wf.context` overload must list them (a test compares the two). Not the saved
/// layer's record (`StateDocument.ContextField`): `inner` is a live context (or false) here, and a
/// script gives no `values`. The values' types are checked where each is read, as before.
enum ContextOption: String, CrossingRecord {
    case name, inner, fields
}
