import Wayfinder

/// The fields a screen's `render()` may return beside its title, lines and links:
/// `fields = { { name = "who", label = "Your name", kind = "text", value = "" }, ... }`. What a
/// user typed lives with the screen (``ScreenFieldValues``) and shows in place of `value`.
extension RenderedScreen {
    /// One field: what it is called, what it says, what it holds.
    public struct Field: Equatable, Sendable {
        /// What a field holds and how it is shown.
        public enum Kind: String, CaseIterable, Sendable {
            /// A line of text.
            case text
            /// Text that is shown masked, never saved and never logged.
            case secret
            /// On or off.
            case toggle
            /// One of the field's `choices`.
            case choice
        }

        /// The name the field's value goes by in the values a button's method receives.
        public var name: String
        /// What the screen shows beside it; its name when the script gives none.
        public var label: String
        /// How it is shown and what its value may be.
        public var kind: Kind
        /// Its value: text for a text, secret or choice field, a boolean for a toggle.
        public var value: Value
        /// What a choice field may hold, in order; empty for the other kinds.
        public var choices: [String]
        /// The value `wayfinder crawl` types before pressing a button (`sample = ...`); nil when
        /// the script declares none, and the crawl presses with the field as it is.
        public var sample: Value?

        /// A field named `name`; the label defaults to the name, the value to the kind's empty
        /// value (empty text, off, the first choice).
        public init(name: String, label: String? = nil, kind: Kind = .text, value: Value? = nil, choices: [String] = []) {
            self.name = name
            self.label = label ?? name
            self.kind = kind
            self.choices = choices
            self.value = value ?? kind.emptyValue(choices: choices)
        }

        /// Whether its value must never be saved, logged or shown.
        public var isSecret: Bool { kind == .secret }

        /// Its value as text to show: a secret's masked, a toggle's "on" or "off".
        public var shownValue: String {
            switch (kind, value) {
            case (.secret, .string(let text)): String(repeating: "•", count: text.count)
            case (.toggle, .bool(let on)): on ? "on" : "off"
            case (_, .string(let text)): text
            default: value.description
            }
        }

        /// Why `candidate` cannot be this field's value; nil when it can. A secret's value is
        /// never named.
        public func problem(with candidate: Value) -> String? {
            switch (kind, candidate) {
            case (.text, .string), (.secret, .string), (.toggle, .bool): return nil
            case (.choice, .string(let text)):
                if choices.contains(text) { return nil }
                return "'\(text)' is not one of the choices of field '\(name)' (\(choices.joined(separator: ", ")))"
            case (.toggle, _): return "field '\(name)' is a toggle: its value is true or false, not \(candidate.typeDescription)"
            default: return "field '\(name)' holds text, not \(candidate.typeDescription)"
            }
        }
    }

    /// The fields of a screen as a field by field description; nil and `{}` are none.
    static func fields(_ value: Value?, failure: (String) -> ScriptError) throws(ScriptError) -> [Field] {
        let items: [Value]
        switch value {
        case nil, .null?: return []
        case .map(let map)? where map.isEmpty: return []
        case .array(let list)?: items = list
        case let other?: throw failure("returned fields that are \(other.typeDescription), not a list")
        }
        var fields = [Field]()
        var names = Set<String>()
        for (i, item) in items.enumerated() {
            let at = "fields[\(i + 1)]"
            guard case .map(let entry) = item else {
                throw failure("returned \(at) that is \(item.typeDescription), not { name = ..., kind = ... }")
            }
            if let unknown = entry.keys.first(where: { ScreenFieldRecord(rawValue: $0) == nil }) {
                throw failure("returned \(at) with an unknown key '\(unknown)' (keys: \(ScreenFieldRecord.names.joined(separator: ", ")))")
            }
            guard let name = entry[ScreenFieldRecord.name.rawValue]?.stringValue, !name.isEmpty else {
                throw failure("returned \(at) without a name (a non-empty string)")
            }
            guard names.insert(name).inserted else { throw failure("returned two fields named '\(name)'") }
            var label: String?
            switch entry[ScreenFieldRecord.label.rawValue] {
            case nil, .null?: break
            case .string(let text)?: label = text
            case let other?: throw failure("returned \(at) whose label is \(other.typeDescription), not a string")
            }
            let kind: Field.Kind
            switch entry[ScreenFieldRecord.kind.rawValue] {
            case nil, .null?: kind = .text
            case .string(let text)?:
                guard let known = Field.Kind(rawValue: text) else {
                    throw failure("returned \(at) with an unknown kind '\(text)' (kinds: \(Field.Kind.allNames))")
                }
                kind = known
            case let other?: throw failure("returned \(at) whose kind is \(other.typeDescription), not one of \(Field.Kind.allNames)")
            }
            var choices = [String]()
            switch (kind, entry[ScreenFieldRecord.choices.rawValue]) {
            case (.choice, .array(let list)?) where !list.isEmpty:
                for (j, choice) in list.enumerated() {
                    guard let text = choice.stringValue else {
                        throw failure("returned \(at).choices[\(j + 1)] that is \(choice.typeDescription), not a string")
                    }
                    choices.append(text)
                }
            case (.choice, _): throw failure("returned \(at) of kind choice without choices (a non-empty list of strings)")
            case (_, nil), (_, .null?): break
            case (_, _?): throw failure("returned \(at) with choices, which only a field of kind choice has")
            }
            var field = Field(name: name, label: label, kind: kind, choices: choices)
            if let given = entry[ScreenFieldRecord.value.rawValue], !given.isNull {
                if let problem = field.problem(with: given) { throw failure("returned \(at) whose value does not fit: \(problem)") }
                field.value = given
            }
            if let sample = entry[ScreenFieldRecord.sample.rawValue], !sample.isNull {
                if let problem = field.problem(with: sample) { throw failure("returned \(at) whose sample does not fit: \(problem)") }
                field.sample = sample
            }
            fields.append(field)
        }
        return fields
    }
}

extension RenderedScreen.Field.Kind {
    /// The kinds, as an error lists them.
    static var allNames: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// What a field of this kind holds before anything is typed: no text, off, the first choice.
    func emptyValue(choices: [String]) -> Value {
        switch self {
        case .text, .secret: .string("")
        case .toggle: .bool(false)
        case .choice: .string(choices.first ?? "")
        }
    }
}
