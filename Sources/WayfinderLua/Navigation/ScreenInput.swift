import CLua
import Wayfinder

/// Typing into a screen's fields and pressing its buttons: the values kept with the controller
/// (ScreenFieldValues.swift), shown in place of those `render()` gives, and a button's method
/// called as any controller code is, under the same budget and errors.
extension LuaNavigatorBridge {
    /// The kept field values put into a screen `controller` just rendered.
    func applyFieldValues(to screen: inout RenderedScreen, of controller: LuaController) throws(ScriptError) {
        guard !screen.fields.isEmpty || !controller.fieldValues.values.isEmpty else { return }
        var values = controller.fieldValues
        values.apply(to: &screen)
        try controller.keepFieldValues(values)
    }

    /// A shape error of what `render()` returned, naming where the controller's render is
    /// defined, since the table it returned has no line of its own.
    func renderShapeError(_ error: ScriptError, of controller: LuaController) -> ScriptError {
        guard case .handle(let render)? = try? field("render", of: controller), let place = state.definition(of: render) else { return error }
        var located = error
        located.message = "\(place): \(error.message)"
        located.file = String(place[..<(place.lastIndex(of: ":") ?? place.endIndex)])
        located.line = place.split(separator: ":").last.flatMap { Int($0) }
        return located
    }

    /// The work of `WayfinderHost.setField(_:to:on:)`, which says what it does.
    @discardableResult
    func setField(_ name: String, to value: Value, on controller: LuaController) throws(ScriptError) -> RenderedScreen.Field {
        guard let screen = try render(controller) else {
            throw ScriptError(kind: .runtime, message: "\(describe(controller)) has no render(), so no fields")
        }
        guard let field = screen.fields.first(where: { $0.name == name }) ?? screen.fields.first(where: { $0.label == name }) else {
            throw ScriptError(kind: .runtime, message: "no field '\(name)' on the screen (fields: \(Self.list(screen.fields.map(\.name))))")
        }
        if let problem = field.problem(with: value) { throw ScriptError(kind: .runtime, message: problem) }
        if case .string(let text) = value, text.utf8.count > CrossingCap.screen.bytes {
            throw ScriptError(kind: .runtime, message: "the value for field '\(field.name)' is \(CrossingCap.screen.reached)")
        }
        try controller.keepFieldValue(value, for: field)
        var set = field
        set.value = value
        return set
    }

    /// The work of `WayfinderHost.press(_:on:)`, which says what it does.
    @discardableResult
    func press(_ title: String, on controller: LuaController) throws(ScriptError) -> RenderedScreen.Button {
        guard let screen = try render(controller) else {
            throw ScriptError(kind: .runtime, message: "\(describe(controller)) has no render(), so no buttons")
        }
        guard let button = screen.buttons.first(where: { $0.title == title }) else {
            throw ScriptError(kind: .runtime, message: "no button '\(title)' on the screen (buttons: \(Self.list(screen.buttons.map(\.title))))")
        }
        _ = try call(button.method, on: controller, with: [ScreenFieldValues.arguments(of: screen)])
        return button
    }

    private static func list(_ names: [String]) -> String {
        names.isEmpty ? "none" : names.map { "'\($0)'" }.joined(separator: ", ")
    }
}

extension LuaState {
    /// `file:line` where the Lua function `handle` is defined; nil when it is not a Lua function.
    func definition(of handle: Value.Handle) -> String? {
        guard let ref = ref(for: handle) else { return nil }
        let thread = activeThread
        guard (try? push(ref, on: thread)) != nil else { return nil }
        guard lua_type(thread, -1) == LUA_TFUNCTION else {
            lua_settop(thread, -2)
            return nil
        }
        var record = lua_Debug()
        guard lua_getinfo(thread, ">S", &record) != 0, record.linedefined > 0 else { return nil }
        let source = withUnsafeBytes(of: record.short_src) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "\(source):\(record.linedefined)"
    }
}
