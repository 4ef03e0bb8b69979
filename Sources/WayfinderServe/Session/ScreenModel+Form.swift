import OrderedCollections
import Wayfinder
import WayfinderLua

/// The fields and buttons of a screen as the page's phone draws them: real inputs, each sending
/// what is typed (`fill`) and each button a `press`. A secret's value never leaves the host: the
/// page gets whether something was typed, and draws an empty password input.
extension ScreenModel {
    static func addForm(of screen: RenderedScreen, to fields: inout OrderedDictionary<String, Value>) {
        fields["fields"] = .array(screen.fields.map { field in
            var shown = OrderedDictionary<String, Value>()
            shown["name"] = .string(field.name)
            shown["label"] = .string(field.label)
            shown["kind"] = .string(field.kind.rawValue)
            if field.isSecret {
                shown["value"] = ""
                shown["filled"] = .bool(field.value != .string(""))
            } else {
                shown["value"] = field.value
            }
            if field.kind == .choice { shown["choices"] = .array(field.choices.map(Value.string)) }
            return .map(shown)
        })
        fields["buttons"] = .array(screen.buttons.map { ["title": .string($0.title), "method": .string($0.method)] })
    }
}
