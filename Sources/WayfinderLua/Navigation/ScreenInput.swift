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

    /// Sets the field `name` (or, failing that, the one labelled `name`) of the screen
    /// `controller` shows to `value`; throws naming the fields on the screen when there is no
    /// such field, and the field's kind when the value does not fit it.
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

    /// Presses the button titled `title` on the screen `controller` shows: calls its method with
    /// the screen's field values by name. Throws naming the buttons on the screen when none has
    /// that title, and the method's own error as any controller call does.
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

extension AppHost {
    /// Sets the field named (or labelled) `name` on the screen `controller` shows: the value
    /// stays with the screen through re-renders, hot reloads and relaunches (a secret's only in
    /// memory). Throws when there is no such field or the value does not fit its kind.
    @discardableResult
    public func setField(_ name: String, to value: Value, on controller: LuaController) throws(ScriptError) -> RenderedScreen.Field {
        try bridge.setField(name, to: value, on: controller)
    }

    /// Presses the button titled `title` on the screen `controller` shows: `controller:method(values)`.
    @discardableResult
    public func press(_ title: String, on controller: LuaController) throws(ScriptError) -> RenderedScreen.Button {
        try bridge.press(title, on: controller)
    }
}
