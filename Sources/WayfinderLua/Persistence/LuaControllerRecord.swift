import OrderedCollections
import Wayfinder

/// What a Lua controller says about itself when the tree is saved, and what a restored one is
/// handed back: the navigator module's `persist` answers a record read by name
/// (`PersistRecord`); a restored entry's context and list position go to `make` as the
/// open's action.
extension LuaNavigatorBridge {
    /// What `controller` says about itself. A `persist` hook that fails is reported, and the
    /// entry is saved by its URL alone.
    func record(of controller: LuaController, at url: String) -> ControllerRecord {
        guard let hooks else { return ControllerRecord() }
        do throws(ScriptError) {
            // The record is the navigator's own level around the script's state.
            let answer = try state.call(hooks.persist, [.handle(controller.handle)], wrapperLevels: 1, cap: .savedState).first ?? .null
            // false: not saved; else a record by name (`persist` in lua/wayfinder/navigator.lua).
            guard case .map(let fields) = answer else {
                if answer == .bool(false) { return ControllerRecord(persists: false) }
                throw ScriptError(kind: .runtime, message: "the navigator's persist answered \(answer), not a record or false")
            }
            func field(_ name: PersistRecord) -> Value? {
                guard let value = fields[name.rawValue], !value.isNull else { return nil }
                return value
            }
            let position = field(.model)
            let model = NavigationState.ModelPosition(selected: position?[StateDocument.ModelField.selected.rawValue].flatMap { $0.isNull ? nil : $0 },
                                                      anchor: position?[StateDocument.ModelField.anchor.rawValue].flatMap { $0.isNull ? nil : $0 })
            return ControllerRecord(state: controller.fieldValues.saving(into: field(.state)), important: field(.important)?.isTruthy ?? false,
                                    context: field(.context).flatMap { state.object($0, as: ContextChain.self) },
                                    model: model.selected == nil && model.anchor == nil ? nil : model, title: controller.renderedTitle)
        } catch {
            warn("\(url): persist: \(error.message); saved without its state")
            return ControllerRecord(state: controller.fieldValues.saving(into: nil), title: controller.renderedTitle)
        }
    }

    /// What `make` receives as the open's action for a restored entry: its context, by its Lua
    /// object (`made` keeps the objects made so far, so layers shared by entries stay shared),
    /// and the list position to find again by model identifier. nil when there is neither.
    func restoredAction(for entry: NavigationState.Entry, context: ContextChain?,
                        made objects: inout [ObjectIdentifier: Value]) throws -> Value? {
        var action = OrderedDictionary<String, Value>()
        if let context { action[OpenAction.context.rawValue] = try luaObject(for: context, made: &objects) }
        if let model = entry.model { action[OpenAction.model.rawValue] = model.document }
        return action.isEmpty ? nil : .map(action)
    }

    /// The Lua object of a restored layer (and of the layers it chains to), made once each,
    /// innermost first; the chain is walked in a loop, as long as a state file makes it.
    private func luaObject(for context: ContextChain, made: inout [ObjectIdentifier: Value]) throws -> Value {
        guard let hooks else { return .null }
        let app = appContext
        var unmade = [ContextChain]()
        var current: ContextChain? = context
        while let layer = current, layer !== app, made[ObjectIdentifier(layer)] == nil {
            unmade.append(layer)
            current = layer.inner
        }
        for layer in unmade.reversed() {
            let inner = layer.inner.map { madeObject(for: $0, app: app, made: made, hooks: hooks) } ?? .null
            let fields: Value = layer.fields.isEmpty ? .null
                : .map(.init(uniqueKeysWithValues: layer.fields.sorted { $0.key < $1.key }.map { ($0.key, Value.string($0.value.rawValue)) }))
            let core = try state.newObject(layer, metatable: try contextMetatable())
            let object = try state.callHoldingResult(hooks.wrapContext, [core, .int(Int64(layer.id)), layer.name.map(Value.string) ?? .null, inner, fields],
                                                     kind: "context").map(Value.handle) ?? .null
            made[ObjectIdentifier(layer)] = object
        }
        return madeObject(for: context, app: app, made: made, hooks: hooks)
    }

    /// The Lua object of a layer made already (the app's is the host's own).
    private func madeObject(for layer: ContextChain, app: ContextChain?, made: [ObjectIdentifier: Value], hooks: LuaHostHooks) -> Value {
        layer === app ? .handle(hooks.appContext) : made[ObjectIdentifier(layer)] ?? .null
    }
}
