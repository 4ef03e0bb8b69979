import Wayfinder

/// `wayfinder.native.context`: `ContextChain` lent to Lua. Each context is a userdata owning its
/// Swift layer; `lua/wayfinder/context.lua` wraps it in the `wf.context` object scripts use.
/// Calls answer `true, result` or `false, reason`, so the Lua side can raise at the script's line.
/// Stored values count against the state's memory limit (``ContextCharges``).
enum ContextBinding {
    static let functions: [(String, LuaBinding)] = [
        ("new", new), ("get", get), ("set", set), ("remove", remove), ("keys", keys), ("dump", dump),
        ("observe", observe),
    ]

    /// new(name | nil, inner | nil, fields | nil) -> true, userdata, id | false, reason
    static let new: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let name = try call.optionalString(1, name: "name")
            let inner = call.type(2) == .userdata ? try call.object(2, as: ContextChain.self, name: "inner") : nil
            var fields: [String: ContextFieldType] = [:]
            if case .map(let declared) = try call.value(3, name: "fields") {
                for (field, type) in declared {
                    guard let typeName = type.stringValue, let parsed = ContextFieldType(rawValue: typeName) else {
                        let known = ContextFieldType.allCases.map(\.rawValue).joined(separator: ", ")
                        return [false, .string("wf.context: field '\(field)' has an unknown type \(type) (types: \(known))")]
                    }
                    fields[field] = parsed
                }
            }
            let context = ContextChain(name: name, inner: inner, fields: fields)
            return [true, try call.state.newObject(context, metatable: try host.bridge.contextMetatable()), .int(Int64(context.id))]
        }
    }

    /// get(ctx, key, name) -> true, value | false, reason
    static let get: LuaBinding = { L in
        LuaCall.run(L) { call in
            let context = try call.object(1, as: ContextChain.self, name: "context")
            let key = try call.string(2, name: "key")
            return answer { try context.get(key, in: try call.optionalString(3, name: "name")) ?? .null }
        }
    }

    /// set(ctx, key, value, name) -> true | false, reason. Observer errors are warnings.
    static let set: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let context = try call.object(1, as: ContextChain.self, name: "context")
            let key = try call.string(2, name: "key")
            // Any Lua value may be stored; a table that is not plain data (array items mixed
            // with string keys) is kept by reference, as functions are.
            let value = try call.valueHoldingTables(3, name: "value")
            let name = try call.optionalString(4, name: "name")
            return answer {
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

    /// remove(ctx, key, name) -> true, removed | false, reason
    static let remove: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let context = try call.object(1, as: ContextChain.self, name: "context")
            let key = try call.string(2, name: "key")
            let name = try call.optionalString(3, name: "name")
            return answer {
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

    /// observe(ctx, key) -> true | false, reason: from now on, every set of `key` on this layer
    /// (from Lua or Swift) reaches the Lua side's observers of it.
    static let observe: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let context = try call.object(1, as: ContextChain.self, name: "context")
            let key = try call.string(2, name: "key")
            return answer {
                try host.bridge.bridgeObservers(of: context, key: key)
                return .bool(true)
            }
        }
    }

    private static func answer(_ body: () throws -> Value) -> [Value] {
        do {
            return [true, try body()]
        } catch let error as ContextError {
            return [false, .string(error.description)]
        } catch {
            return [false, .string(String(describing: error))]
        }
    }
}
