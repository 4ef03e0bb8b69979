import Wayfinder

/// `wayfinder.native.context`: `ContextChain` lent to Lua. Each context is a userdata owning its
/// Swift layer; `lua/wayfinder/context.lua` wraps it in the `wf.context` object scripts use.
/// A mistake answers `nil, reason` (a result may itself be nil: the Lua side tells them apart by
/// the reason), so the Lua side can raise it at the script's line.
/// Stored values count against the state's memory limit (``ContextCharges``).
enum ContextBinding {
    static let functions: [(String, LuaBinding)] = [
        ("new", new), ("get", get), ("set", set), ("remove", remove), ("keys", keys), ("dump", dump),
        ("observe", observe), ("fields", fields),
    ]

    /// fields() -> { name, symbol, type, host, ... }: the fields of `wf.context { ... }`
    /// (`ContextOption`).
    static let fields: LuaBinding = { L in
        LuaCall.run(L) { _ in [ContextOption.exported] }
    }

    /// new(name | nil, inner | nil, fields | nil) -> userdata, id | nil, reason
    static let new: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let name = try call.optionalString(1, name: "name")
            let inner = call.type(2) == .userdata ? try call.object(2, as: ContextChain.self, name: "inner") : nil
            var fields: [String: ContextFieldType] = [:]
            let declaration: Value
            do throws(ScriptError) {
                declaration = try call.state.value(at: 3, in: call.thread, named: "fields")
            } catch {
                throw Refusal("wf.context: \(error.message)")
            }
            if case .map(let declared) = declaration {
                for (field, type) in declared {
                    fields[field] = try ContextFieldType.option(type.stringValue ?? String(describing: type),
                                                                 for: "wf.context: field '\(field)': its type", failing: Refusal.init)
                }
            }
            let context = ContextChain(name: name, inner: inner, fields: fields)
            // A layer keeps its name and field types: charged for as long as it lives. (A plain
            // layer, made at every open, costs the host no more than its Lua object costs Lua.)
            if name != nil || !fields.isEmpty {
                let kept = RetainedCost.layer(name: name, fields: fields.keys)
                try host.bridge.contextCharges.keepWithLayer(context, bytes: kept, in: call.state)
            }
            return [try call.state.newObject(context, metatable: try host.bridge.contextMetatable()), .int(Int64(context.id))]
        }
    }

    /// get(ctx, key, name) -> value | nil, reason
    static let get: LuaBinding = { L in
        LuaCall.run(L) { call in
            let context = try call.object(1, as: ContextChain.self, name: "context")
            let key = try call.string(2, name: "key")
            return try answer { try context.get(key, in: try call.optionalString(3, name: "name")) ?? .null }
        }
    }

    /// set(ctx, key, value, name) -> true | nil, reason. Observer errors are warnings.
    static let set: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let context = try call.object(1, as: ContextChain.self, name: "context")
            let key = try call.string(2, name: "key")
            // Any Lua value may be stored; a table that is not plain data (array items mixed
            // with string keys) is kept by reference, as functions are.
            // A value whose copy does not fit is refused as one whose charge does not.
            let value = try refusingLimits { () throws(ScriptError) in try call.valueHoldingTables(3, name: "value") }
            let name = try call.optionalString(4, name: "name")
            return try answer {
                let layer = try context.layer(named: name)
                let reservation = try host.bridge.contextCharges.reserve(layer, key: key, value: value, in: call.state)
                let failures: [ContextChain.ObserverFailure]
                do {
                    failures = try context.set(key, value, in: name)
                } catch {
                    host.bridge.contextCharges.cancel(reservation, in: call.state)
                    throw error
                }
                host.bridge.contextCharges.keep(reservation, in: call.state)
                for failure in failures {
                    host.warn("observer of '\(failure.key)': \((failure.error as? ScriptError)?.message ?? String(describing: failure.error))")
                }
                return .bool(true)
            }
        }
    }

    /// remove(ctx, key, name) -> removed | nil, reason
    static let remove: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let context = try call.object(1, as: ContextChain.self, name: "context")
            let key = try call.string(2, name: "key")
            let name = try call.optionalString(3, name: "name")
            return try answer {
                let layer = try context.layer(named: name)
                let removed = try context.remove(key, in: name)
                if removed { host.bridge.contextCharges.forget(layer, key: key, in: call.state) }
                return .bool(removed)
            }
        }
    }

    static let keys: LuaBinding = { L in
        LuaCall.run(L) { call in
            [.array(try call.object(1, as: ContextChain.self, name: "context").keys.map(Value.string))]
        }
    }

    static let dump: LuaBinding = { L in
        LuaCall.run(L) { call in
            [.string(try call.object(1, as: ContextChain.self, name: "context").dump())]
        }
    }

    /// observe(ctx, key) -> true | nil, reason: from now on, every set of `key` on this layer
    /// (from Lua or Swift) reaches the Lua side's observers of it.
    static let observe: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let context = try call.object(1, as: ContextChain.self, name: "context")
            let key = try call.string(2, name: "key")
            return try answer {
                try host.bridge.bridgeObservers(of: context, key: key)
                return .bool(true)
            }
        }
    }

    /// The result, or a refusal for any failure (a mistake in the script's use of the context, a
    /// value past the memory limit, an observer's error).
    /// `body`'s value; a limit it reached is a refusal (`nil, reason`) with the limit's message.
    private static func refusingLimits(_ body: () throws(ScriptError) -> Value) throws -> Value {
        do {
            return try body()
        } catch {
            if error.kind == .memory || error.kind == .timeout { throw Refusal(error.message) }
            throw error
        }
    }

    private static func answer(_ body: () throws -> Value) throws(Refusal) -> [Value] {
        do {
            return [try body()]
        } catch {
            throw Refusal(String(describing: error))
        }
    }
}
