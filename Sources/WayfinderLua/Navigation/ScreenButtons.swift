import Wayfinder

/// The buttons a screen's `render()` may return: `buttons = { { "Send", "send" }, ... }` (or
/// `{ title = "Send", method = "send" }`). Pressing one calls `controller:send(values)` with the
/// screen's field values by name (ScreenInput.swift).
extension RenderedScreen {
    /// One button: what it says, and the controller method it calls.
    public struct Button: Equatable, Sendable {
        /// The text the button shows.
        public var title: String
        /// The name of the controller method a press calls, with the screen's field values.
        public var method: String

        /// A button that shows `title` and calls the controller's `method` when pressed.
        public init(title: String, method: String) {
            self.title = title
            self.method = method
        }
    }

    /// The buttons of a screen; nil and `{}` are none.
    static func buttons(_ value: Value?, failure: (String) -> ScriptError) throws(ScriptError) -> [Button] {
        let items: [Value]
        switch value {
        case nil, .null?: return []
        case .map(let map)? where map.isEmpty: return []
        case .array(let list)?: items = list
        case let other?: throw failure("returned buttons that are \(other.typeDescription), not a list")
        }
        var buttons = [Button]()
        for (i, item) in items.enumerated() {
            let title: String?, method: String?
            switch item {
            case .array(let pair) where pair.count == 2:
                (title, method) = (pair[0].stringValue, pair[1].stringValue)
            case .map(let button) where Set(button.keys).isSubset(of: ["title", "method"]):
                (title, method) = (button["title"]?.stringValue, button["method"]?.stringValue)
            default:
                throw failure("returned buttons[\(i + 1)] that is not { \"title\", \"method\" }")
            }
            guard let title, let method, !method.isEmpty else {
                throw failure("returned buttons[\(i + 1)] without a string title and a method name")
            }
            buttons.append(Button(title: title, method: method))
        }
        return buttons
    }
}
