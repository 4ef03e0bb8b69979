import Wayfinder

/// What the values a script stored in context layers cost, charged to its state's memory limit
/// (they live in Swift, outside Lua's allocator), and what each layer keeps beside them (its
/// declared field types, the host's observer of each key observed from Lua). A layer's charge is
/// given back when the layer is gone; dead layers are looked for (after a full collection) when a
/// charge does not fit.
struct ContextCharges {
    private struct Layer {
        weak var layer: ContextChain?
        var bytes: [String: Int] = [:]
        /// The layer's own keeping: field types and observers, for as long as the layer lives.
        var fixed = 0
    }

    private var layers: [Int: Layer] = [:]

    /// A growth charged before a value is stored: ``keep(_:in:)`` once it is stored,
    /// ``cancel(_:in:)`` when it was not.
    struct Reservation {
        fileprivate let layer: ContextChain
        fileprivate let key: String
        fileprivate let old: Int
        fileprivate let new: Int
    }

    /// Charges what storing `value` under `key` in `layer` costs beyond the value it replaces;
    /// throws the memory limit's error, charging nothing, when that does not fit.
    mutating func reserve(_ layer: ContextChain, key: String, value: Value, in state: LuaState) throws(ScriptError) -> Reservation {
        let reservation = Reservation(layer: layer, key: key, old: layers[layer.id]?.bytes[key] ?? 0,
                                      new: key.utf8.count + value.retainedSize)
        try charge(reservation.new - reservation.old, in: state)
        return reservation
    }

    /// Charges `bytes` the layer keeps for as long as it lives; throws the memory limit's error,
    /// charging nothing, when they do not fit.
    mutating func keepWithLayer(_ layer: ContextChain, bytes: Int, in state: LuaState) throws(ScriptError) {
        try charge(bytes, in: state)
        if layers[layer.id] == nil { layers[layer.id] = Layer(layer: layer) }
        layers[layer.id]?.fixed += bytes
    }

    private mutating func charge(_ bytes: Int, in state: LuaState) throws(ScriptError) {
        do {
            try state.chargeExternal(bytes)
        } catch {
            // Layers the script dropped may not be collected yet: collect, then give back theirs.
            try state.collectGarbage()
            releaseDeadLayers(in: state)
            try state.chargeExternal(bytes)
        }
    }

    mutating func keep(_ reservation: Reservation, in state: LuaState) {
        let id = reservation.layer.id
        if layers[id] == nil { layers[id] = Layer(layer: reservation.layer) }
        layers[id]?.bytes[reservation.key] = reservation.new
        state.releaseExternal(reservation.old - reservation.new)
    }

    func cancel(_ reservation: Reservation, in state: LuaState) {
        state.releaseExternal(reservation.new - reservation.old)
    }

    /// The key left the layer: its charge is given back.
    mutating func forget(_ layer: ContextChain, key: String, in state: LuaState) {
        guard let bytes = layers[layer.id]?.bytes.removeValue(forKey: key) else { return }
        state.releaseExternal(bytes)
    }

    mutating func releaseDeadLayers(in state: LuaState) {
        for (id, entry) in layers where entry.layer == nil {
            state.releaseExternal(entry.bytes.values.reduce(entry.fixed, +))
            layers[id] = nil
        }
    }
}
