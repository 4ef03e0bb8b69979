/// The type of a typed context's field (`wf.context { fields = { age = "int" } }`).
public enum ContextFieldType: String, Sendable, CaseIterable {
    /// The Lua types a field can be declared with; `any` accepts every value.
    case int, number, string, boolean, table, function, any

    /// Whether `value` may be stored in a field of this type. nil (a stored nil) always may.
    public func accepts(_ value: Value) -> Bool {
        switch (self, value) {
        case (_, .null), (.any, _): return true
        case (.int, .int), (.number, .int), (.number, .double), (.string, .string), (.boolean, .bool): return true
        case (.int, .double(let d)): return d.rounded() == d && abs(d) < 9.2e18
        case (.table, .array), (.table, .map): return true
        case (.table, .handle(let h)): return h.kind == "table"
        case (.function, .handle(let h)): return h.kind == "function"
        default: return false
        }
    }
}
