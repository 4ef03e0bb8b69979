import Wayfinder

/// The bridge between an app's navigator and its Lua state: the navigator's factory and delegate
/// (LuaControllerFactory.swift, LuaNavigatorDelegate.swift), context objects and their observers
/// (LuaContexts.swift), and what the host asks Lua about a controller (its screen, its class, what
/// to save: LuaControllerRecord.swift). Every call goes through one of the bundled modules' host
/// functions (`LuaHostHooks`), protected and under the state's limits, so a script's error fails
/// the one operation it happened in. One per app host.
final class LuaNavigatorBridge {
    let state: LuaState
    let navigator: Navigator<LuaTarget, LuaController>
    /// Told what went wrong where nothing can fail any more (an appear hook's error).
    var warn: (String) -> Void = { _ in }
    /// The bundled modules' host functions, once they have started (``connect(_:deduce:)``):
    /// until then nothing is asked of Lua.
    private(set) var hooks: LuaHostHooks?
    /// `wf.map._deduce`, the constructor deduction shared with the navigator module.
    private var deduce: Value.Handle?
    /// Controllers the app's constructors made.
    var constructedCount = 0
    /// A route pattern's param names as `make` receives them, by the pattern's text.
    var paramNamesByPattern: [String: Value] = [:]
    /// The metatable context userdata share, made at the first context.
    var contextMetatableRef: LuaRef?
    /// What each context layer's values are charged to the state's memory limit (ContextBinding).
    var contextCharges = ContextCharges()
    /// The metatable native screens' userdata share, made at the first native screen.
    var screenMetatableRef: LuaRef?
    /// The native screen the open under way made (NativeScreenBinding's `make`), for its
    /// controller to hold, and what its request's copies were charged, which the controller
    /// holds too.
    var madeNativeScreen: (screen: any NativeScreen, charged: Int)?
    /// What the open a guard keeps waiting costs, charged while it waits (LuaRouteGuards.swift).
    var pendingCharge: ExternalCharge?
    /// Whether the script set `nav.delegate`; its hooks cost a call into Lua each, so they are
    /// asked only then.
    var delegateIsSet = false {
        didSet { installDelegate() }
    }
    /// Where external URLs go when the script has no `open_external` hook.
    var openExternal: ((String) -> Void)? {
        didSet { installDelegate() }
    }

    init(state: LuaState, navigator: Navigator<LuaTarget, LuaController>) {
        self.state = state
        self.navigator = navigator
        state.afterCollection = { [weak self, unowned state] in self?.contextCharges.releaseDeadLayers(in: state) }
    }

    /// Takes the host functions of the started modules and becomes the navigator's factory.
    func connect(_ hooks: LuaHostHooks, deduce: Value.Handle) {
        self.hooks = hooks
        self.deduce = deduce
        navigator.factory = controllerFactory(hooks)
        navigator.routeGuard = { [unowned self] match, request in try verdict(of: match, request) }
        navigator.routeParent = { [unowned self] match in try parent(of: match) }
        navigator.pendingChanged = { [unowned self] in chargePending() }
        installDelegate()
    }

    private func installDelegate() {
        if delegateIsSet, let hooks {
            navigator.delegate = navigatorDelegate(hooks)
        } else {
            navigator.delegate = NavigatorDelegate()
            navigator.delegate.openExternal = openExternal
        }
    }

    /// The metatable native screens' userdata share.
    func screenMetatable() throws(ScriptError) -> LuaRef {
        if let screenMetatableRef { return screenMetatableRef }
        let made = try state.makeTable([])
        screenMetatableRef = made
        return made
    }

    // MARK: Asking Lua about controllers

    /// What `controller` shows: its `render()` result, or nil when it has no render method.
    func render(_ controller: LuaController) throws(ScriptError) -> RenderedScreen? {
        guard let hooks else { return nil }
        let result: Value
        do {
            result = try state.call(hooks.hook, [.handle(controller.handle), "render"], cap: .screen).first ?? .null
        } catch where error.kind == .memory && error.file == nil {
            // What render returned did not cross: the error names the controller it came from.
            throw ScriptError(kind: .memory, message: "render() of \(describe(controller)): \(error.message)")
        }
        if result.isNull { return nil }
        var screen: RenderedScreen
        do {
            screen = try RenderedScreen(result, owner: describe(controller))
        } catch {
            throw renderShapeError(error, of: controller)
        }
        try controller.keepTitle(screen.title)
        try applyFieldValues(to: &screen, of: controller)
        return screen
    }

    /// The controller's class name (`wf.controller`'s), else its Lua type.
    func describe(_ controller: LuaController) -> String {
        guard let hooks, let name = try? state.call(hooks.describe, [.handle(controller.handle)]).first?.stringValue else {
            return "a controller"
        }
        return name
    }

    /// `controller[name]`, read in Lua as a script reads it (through its class and `__index`).
    func field(_ name: String, of controller: LuaController) throws(ScriptError) -> Value {
        guard let hooks else { throw ScriptError(kind: .runtime, message: "the app's modules have not started") }
        return try state.call(hooks.field, [.handle(controller.handle), .string(name)]).first ?? .null
    }

    /// `controller:method(arguments...)`, and what it returned.
    func call(_ method: String, on controller: LuaController, with arguments: [Value]) throws(ScriptError) -> [Value] {
        guard let hooks else { throw ScriptError(kind: .runtime, message: "the app's modules have not started") }
        return try state.call(hooks.call, [.handle(controller.handle), .string(method)] + arguments)
    }

    /// The constructor a class target would get, per docs/lua-api.md; for functions, only the selector.
    func constructor(for route: Route<LuaTarget>) throws(ScriptError) -> (method: String?, selector: String?) {
        // A native screen's class has no constructor: its factory makes the screen.
        guard route.target.isClass, route.target.nativeName == nil, let deduce else { return (nil, route.selector) }
        let names = Value.array(route.pattern.paramNames.map(Value.string))
        let answer = try state.call(deduce, [.handle(route.target.handle), names, route.options.selector.map(Value.string) ?? .null])
        let method = answer.first?.stringValue
        let selector = answer.count > 1 ? answer[1].stringValue : nil
        return (method, selector ?? route.selector)
    }
}
