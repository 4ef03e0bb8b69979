import CLua
import CLuaShim
import Wayfinder

/// `Value`s to ops in the state's buffer. C builds them into Lua values later, under protection, so
/// writing never touches the Lua stack and cannot raise.
///
/// An `.array` holding `.null` leaves a hole in the Lua table (Lua cannot store nil), so it does not
/// come back as the same array. An empty `.array` comes back as an empty `.map`.
extension LuaState {
    /// `wrapperLevels`: levels of the host's own around the script's values (beyond the few
    /// `hostLevels` any value may have), not counted toward the depth limit.
    func write(_ values: [Value], wrapperLevels: Int = 0) throws(ScriptError) {
        for value in values { try write(value, depth: -wrapperLevels) }
    }

    func write(_ value: Value, depth: Int) throws(ScriptError) {
        switch value {
        case .null: wf_op_nil(shim)
        case .bool(let b): wf_op_bool(shim, b ? 1 : 0)
        case .int(let i): wf_op_int(shim, i)
        case .double(let d): wf_op_double(shim, d)
        case .string(let s): writeString(s)
        case .array(let items):
            try checkDepth(depth)
            wf_op_table(shim, Int32(clamping: items.count), 0)
            for (offset, item) in items.enumerated() {
                try write(item, depth: depth + 1)
                wf_op_setindex(shim, Int64(offset) + 1)
            }
        case .map(let fields):
            try checkDepth(depth)
            wf_op_table(shim, 0, Int32(clamping: fields.count))
            for (key, item) in fields {
                try write(item, depth: depth + 1)
                var key = key
                key.withUTF8 { wf_op_setfield(shim, $0.baseAddress, $0.count) }
            }
        case .handle(let handle):
            guard let ref = ref(for: handle) else {
                throw ScriptError(kind: .conversion, message: "\(handle) does not belong to this Lua state")
            }
            wf_op_ref(shim, ref.reference)
        }
    }

    func writeString(_ string: String) {
        var string = string
        string.withUTF8 { wf_op_string(shim, $0.baseAddress, $0.count) }
    }

    /// A value the reader took (at most `maximumDepth` deep) always goes back, also inside the
    /// host's own levels around it.
    private func checkDepth(_ depth: Int) throws(ScriptError) {
        let limit = LuaState.maximumDepth + LuaState.hostLevels
        guard depth < limit else {
            throw ScriptError(kind: .conversion, message: "value is nested more than \(limit) levels deep")
        }
    }
}
