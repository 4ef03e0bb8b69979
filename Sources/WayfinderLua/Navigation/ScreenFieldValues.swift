import OrderedCollections
import Wayfinder

/// What was typed into a screen's fields, kept with its controller: shown in place of the value
/// `render()` gives, handed to a button's method, and saved with the screen's entry (under
/// ``savedKey`` in its state, beside what its `persist` writes) so it survives a hot reload and
/// a relaunch. A secret field's value is kept in memory only: never saved.
public struct ScreenFieldValues: Equatable, Sendable {
    /// The values by field name, in the order they were first set.
    public private(set) var values: OrderedDictionary<String, Value> = [:]
    /// The names the last render gave the kind secret.
    private(set) var secrets: Set<String> = []

    /// No values typed yet: every field shows what `render()` gives.
    public init() {}

    /// The key of a saved state that holds the fields' values: a name no script's `persist` is
    /// likely to write, since the state is the script's own table.
    public static let savedKey = "wayfinder.fields"

    /// What keeping the values costs, charged to the state's memory limit.
    var cost: Int { values.isEmpty ? 0 : Value.map(values).retainedSize }

    mutating func set(_ value: Value, for field: RenderedScreen.Field) {
        values[field.name] = value
        if field.isSecret { secrets.insert(field.name) } else { secrets.remove(field.name) }
    }

    /// `screen` with the kept values in place of those render gave; a kept value that no longer
    /// fits its field (its kind or choices changed) is not shown. Learns which fields are secret.
    mutating func apply(to screen: inout RenderedScreen) {
        secrets = Set(screen.fields.filter(\.isSecret).map(\.name))
        for i in screen.fields.indices {
            if let kept = values[screen.fields[i].name], screen.fields[i].problem(with: kept) == nil {
                screen.fields[i].value = kept
            }
        }
    }

    /// The values of `screen`'s fields by name, as a button's method receives them.
    static func arguments(of screen: RenderedScreen) -> Value {
        .map(OrderedDictionary(uniqueKeysWithValues: screen.fields.map { ($0.name, $0.value) }))
    }

    /// `state` (what the screen's `persist` wrote, or nil) with the values that may be saved
    /// added under ``savedKey``; unchanged when there are none, or when the script's state is a
    /// list, which has no room for a key.
    func saving(into state: Value?) -> Value? {
        let saved = values.filter { !secrets.contains($0.key) }
        guard !saved.isEmpty else { return state }
        switch state {
        case nil, .null?:
            return .map([Self.savedKey: .map(saved)])
        case .array(let list)? where list.isEmpty:
            return .map([Self.savedKey: .map(saved)])
        case .map(var fields)?:
            fields[Self.savedKey] = .map(saved)
            return .map(fields)
        default:
            return state
        }
    }

    /// Takes the saved values out of a restored state, leaving what the script's `persist` wrote
    /// (nil when that was nothing): the script's `restore` sees its own state only. Saved values
    /// that are not plain text or booleans are dropped, since no field holds them.
    static func taking(from state: inout Value?) -> ScreenFieldValues {
        guard case .map(var fields)? = state, let saved = fields.removeValue(forKey: savedKey) else { return ScreenFieldValues() }
        state = fields.isEmpty ? nil : .map(fields)
        var kept = ScreenFieldValues()
        if case .map(let values) = saved {
            for (name, value) in values {
                switch value {
                case .string, .bool: kept.values[name] = value
                default: continue
                }
            }
        }
        return kept
    }
}
