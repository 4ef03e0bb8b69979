/// What a controller's `render()` answers, declared once: the host reads the table by these
/// names (``RenderedScreen``) and refuses any other, lua/wayfinder/native_screen.lua writes a
/// native screen's by them, and the LuaLS definitions' `wayfinder.screen` must list them (a test
/// compares the two).
enum ScreenRecord: String, CrossingRecord {
    case title, lines, links, fields, buttons
}

/// One of the fields in a screen's `fields` list, declared once: the host reads it by these names
/// (ScreenFields.swift) and refuses any other, and the LuaLS definitions' `wayfinder.field` must
/// list them (a test compares the two). `sample` is what `wayfinder crawl` types.
enum ScreenFieldRecord: String, CrossingRecord {
    case name, label, kind, value, choices, sample
}
