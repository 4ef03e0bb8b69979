import Wayfinder

/// What a user does on a screen beside navigating: typing into a field and pressing a button,
/// told to input observers as ``ScreenInputEvent``s (docs/events.md, "Typing and pressing").
extension WayfinderHost {
    /// The fields of the screen `controller` shows, with what was typed into them.
    public func fields(of controller: LuaController) throws(ScriptError) -> [RenderedScreen.Field] {
        try render(controller)?.fields ?? []
    }

    /// The buttons of the screen `controller` shows.
    public func buttons(of controller: LuaController) throws(ScriptError) -> [RenderedScreen.Button] {
        try render(controller)?.buttons ?? []
    }

    /// Sets the field named `name` (or, failing that, the one labelled `name`) on the screen
    /// `controller` shows to `value`, and tells the input observers. The value stays with the
    /// screen through re-renders, hot reloads and relaunches (a secret's only in memory). Throws
    /// naming the fields on the screen when there is no such field, and the field's kind when the
    /// value does not fit it.
    @discardableResult
    public func setField(_ name: String, to value: Value, on controller: LuaController) throws(ScriptError) -> RenderedScreen.Field {
        let field = try exclusively("set a field", refusing: Self.scriptRefusal) { () throws(ScriptError) in
            try current.bridge.setField(name, to: value, on: controller)
        }
        tellInput(.fieldSet(url: url(of: controller), field: field.masked))
        return field
    }

    /// Presses the button titled `title` on the screen `controller` shows: calls its method
    /// (`controller:method(values)`) with the screen's field values by name, and tells the input
    /// observers; what the method changes in the tree comes as navigation events before this
    /// one. Throws naming the buttons on the screen when none has that title, and the method's
    /// own error as any controller call does.
    @discardableResult
    public func press(_ title: String, on controller: LuaController) throws(ScriptError) -> RenderedScreen.Button {
        let url = url(of: controller)
        let button = try exclusively("press a button", refusing: Self.scriptRefusal) { () throws(ScriptError) in
            try current.bridge.press(title, on: controller)
        }
        tellInput(.pressed(url: url, button: button))
        return button
    }

    /// Calls `observer` with every field set and button pressed from now on.
    @discardableResult
    public func observeInput(_ observer: @escaping (ScreenInputEvent) -> Void) -> ObserverToken {
        exclusivelyOrStop("add an input observer") {
            nextObserverNumber += 1
            let token = ObserverToken(number: nextObserverNumber)
            inputObservers.append((token, observer))
            return token
        }
    }

    /// Stops calling the input observer `token` names. False when it is not observing.
    @discardableResult
    public func removeInputObserver(_ token: ObserverToken) -> Bool {
        exclusivelyOrStop("remove an input observer") {
            guard let index = inputObservers.firstIndex(where: { $0.token == token }) else { return false }
            inputObservers.remove(at: index)
            return true
        }
    }

    private func url(of controller: LuaController) -> String? {
        exclusivelyOrStop("read a controller's URL") { (try? current.bridge.field(ControllerField.url.rawValue, of: controller))?.stringValue }
    }

    private func tellInput(_ event: ScreenInputEvent) {
        for (_, observer) in inputObservers { observer(event) }
    }
}

/// One thing typed or pressed on a screen. A secret field's value is never in it: its
/// ``RenderedScreen/Field/shownValue`` is masked and its `value` is replaced by the mask.
public enum ScreenInputEvent: Sendable, Equatable {
    /// A field of the screen at `url` was set.
    case fieldSet(url: String?, field: RenderedScreen.Field)
    /// A button of the screen at `url` was pressed.
    case pressed(url: String?, button: RenderedScreen.Button)
}

extension RenderedScreen.Field {
    /// The field as it may be told or shown: a secret's value replaced by its mask.
    public var masked: RenderedScreen.Field {
        var told = self
        if isSecret { told.value = .string(shownValue) }
        return told
    }
}
