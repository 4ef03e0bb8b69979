/// The fields of the table lua/wayfinder/native_screen.lua hands `native.make` for one open of a
/// native screen, declared once: the screen's name, the match (as `make` gets it), the new
/// screen's context (a context's Swift layer) and the saved state. The binding reads the table by
/// these names and refuses any other, naming it.
enum NativeScreenField: String, CrossingRecord {
    case name, url, pattern, params, query, fragment, context, state
}
