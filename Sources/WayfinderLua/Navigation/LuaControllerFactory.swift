import OrderedCollections
import Wayfinder

/// The navigator's `ControllerFactory` for a Lua app: making a controller, a fragment, appear and
/// disappear, and a controller leaving the tree, each a call to a host function of the navigator
/// module.
extension LuaNavigatorBridge {
    func controllerFactory(_ hooks: LuaHostHooks) -> ControllerFactory<LuaTarget, LuaController> {
        ControllerFactory(
            make: { [unowned self] match, request in
                // A restored entry's field values are the screen's, not its script's state.
                var request = request
                let restoredFields = ScreenFieldValues.taking(from: &request.state)
                // The controller the new screen opens over goes along (its context is the new
                // one's inner layer), so the Lua side need not call back for it.
                let opener: Value = (request.opener as? LuaController).map { .handle($0.handle) } ?? .null
                // Allocated once at its full size.
                var args = [Value]()
                args.reserveCapacity(3 + MakeField.inOrder.count)
                args.append(.handle(match.route.target.handle))
                args.append(request.payload ?? .null)
                args.append(opener)
                appendMakeFields(match, request, to: &args)
                // What the screen's entry keeps in Swift while it is in the tree (its URL, the
                // action's query and state) is charged before the constructor runs, and given back
                // when the controller goes: an open that does not fit fails and keeps nothing.
                let kept = RetainedCost.entry(request) + restoredFields.cost
                try state.chargeExternalCollecting(kept)
                madeNativeScreen = nil
                defer { madeNativeScreen = nil }
                let made: Value.Handle?
                do {
                    made = try state.callHoldingResult(hooks.make, args, kind: "controller")
                } catch {
                    state.releaseExternal(kept + (madeNativeScreen?.charged ?? 0))
                    throw error
                }
                guard let made else {
                    state.releaseExternal(kept + (madeNativeScreen?.charged ?? 0))
                    return nil
                }
                constructedCount += 1
                let controller = LuaController(handle: made, ref: state.ref(for: made), state: state,
                                               charged: kept - restoredFields.cost + (madeNativeScreen?.charged ?? 0),
                                               nativeScreen: madeNativeScreen?.screen)
                controller.adoptFieldValues(restoredFields)
                return controller
            },
            handleFragment: { [unowned self] controller, match in
                // Only a pattern whose fragment is a named param names a method to call; any
                // other fragment is handed to the controller as data.
                let namesMethod = match.route.pattern.fragment?.param?.name != nil
                try state.call(hooks.fragment, [.handle(controller.handle), routeValue(match, NavigationRequest(url: match.url.text)), .bool(namesMethod)])
            },
            appear: { [unowned self] controller in callHook("appear", on: controller, hooks) },
            disappear: { [unowned self] controller in callHook("disappear", on: controller, hooks) },
            remaking: { [unowned self] controller, request in
                // Its context (the same Lua object) and list position go as the open's action,
                // the state its persist hook writes as the saved state (restore(state)).
                // The record is the navigator's own level around the script's state.
                let kept = try state.call(hooks.remaking, [.handle(controller.handle)], wrapperLevels: 1).first ?? .null
                var remade = request
                remade.state = controller.fieldValues.saving(into: kept[OpenAction.state.rawValue].flatMap { $0.isNull ? nil : $0 })
                var action = OrderedDictionary<String, Value>()
                for field in [OpenAction.context, .model] {
                    if let value = kept[field.rawValue], !value.isNull { action[field.rawValue] = value }
                }
                remade.payload = action.isEmpty ? nil : .map(action)
                return remade
            })
    }

    /// A controller leaving the tree takes its context observers with it. Until the app observes
    /// anything there is nothing to take, so the navigator is not asked to report leavers (which
    /// costs it a pass over the tree and a call into Lua for each).
    func observeLeavers() {
        guard navigator.factory.leave == nil, let hooks else { return }
        navigator.factory.leave = { [unowned self] controller in
            do { try state.call(hooks.leave, [.handle(controller.handle)]) } catch { warn("leaving: \(error)") }
        }
    }

    /// appear and disappear come after the tree changed; an error in one is reported, not undone.
    /// A controller whose lookup of the hook certainly gives nil would have the Lua side return
    /// at once, so that call is not made.
    private func callHook(_ name: String, on controller: LuaController, _ hooks: LuaHostHooks) {
        if let ref = controller.ref, state.certainlyLacks(name, in: ref) { return }
        do {
            try state.call(hooks.hook, [.handle(controller.handle), .string(name)])
        } catch {
            warn("\(name): \(error.message)")
        }
    }
}
