import OrderedCollections

extension Value {
    /// This value with everything that cannot be written to disk left out: handles (functions,
    /// userdata, tables with a metatable) and numbers that are not finite. Each one left out is
    /// named in `leftOut`, by its path below `path` (`state.callback`, `query.items[2]`). In an
    /// array the place stays, holding nil, so the other elements keep their positions. nil when
    /// the value itself cannot persist.
    public func persistable(at path: String, leftOut: inout [String]) -> Value? {
        switch self {
        case .handle(let handle):
            leftOut.append("\(path) (a \(handle.kind))")
            return nil
        case .double(let double) where !double.isFinite:
            leftOut.append("\(path) (\(double), not a finite number)")
            return nil
        case .array(let elements):
            return .array(elements.enumerated().map { index, element in
                element.persistable(at: "\(path)[\(index + 1)]", leftOut: &leftOut) ?? .null
            })
        case .map(let map):
            var kept = OrderedDictionary<String, Value>()
            for (key, value) in map {
                if let value = value.persistable(at: "\(path).\(key)", leftOut: &leftOut) { kept[key] = value }
            }
            return .map(kept)
        default:
            return self
        }
    }
}
