import Wayfinder

/// `wayfinder.native.codec`: object IDs, percent-encoding and query strings (`wf.codec`).
/// Malformed input gives `nil, reason`.
enum CodecBinding {
    static let functions: [(String, LuaBinding)] = [
        ("encode_id", encodeID), ("decode_id", decodeID), ("escape", escape), ("unescape", unescape),
        ("query", query), ("parse_query", parseQuery),
    ]

    static let encodeID: LuaBinding = { L in
        LuaCall.run(L) { call in [.string(ObjectID.encode(try call.string(1, name: "text")))] }
    }

    static let decodeID: LuaBinding = { L in
        LuaCall.run(L) { call in
            do { return [.string(try ObjectID.decode(try call.string(1, name: "token")))] } catch let error as CodecError {
                return [.null, .string(error.description)]
            }
        }
    }

    static let escape: LuaBinding = { L in
        LuaCall.run(L) { call in [.string(PercentEncoding.escape(try call.string(1, name: "text")))] }
    }

    static let unescape: LuaBinding = { L in
        LuaCall.run(L) { call in
            do { return [.string(try PercentEncoding.unescape(try call.string(1, name: "text")))] } catch let error as CodecError {
                return [.null, .string(error.description)]
            }
        }
    }

    /// Keys are written sorted, since a Lua table has no order of its own.
    static let query: LuaBinding = { L in
        LuaCall.run(L) { call in
            let table = try call.value(1, name: "table")
            guard case .map(var items) = table else {
                if case .array(let list) = table, list.isEmpty { return [.string("")] }
                return [.null, .string("a query table needs string keys")]
            }
            items.sort { $0.key < $1.key }
            do { return [.string(try QueryString.format(items))] } catch let error as CodecError {
                return [.null, .string(error.description)]
            }
        }
    }

    static let parseQuery: LuaBinding = { L in
        LuaCall.run(L) { call in
            do { return [.map(try QueryString.parse(try call.string(1, name: "text")))] } catch let error as CodecError {
                return [.null, .string(error.description)]
            }
        }
    }
}
