import Wayfinder

/// The Lua functions the host calls (lua/wayfinder/host.lua gathers them): making a controller,
/// dispatching a fragment, calling a controller's hook, calling a delegate hook, naming a
/// controller's class, forgetting a controller that left the tree, dispatching a context set
/// to Lua observers, asking a controller what to save, giving a restored context layer its
/// Lua object, migrating a saved state with the app's `migrate`, reading a controller's field and
/// calling its method for Swift; and the app context, as a Lua object and as its Swift layer.
/// Taken once at start-up, so a script that rewrites the modules' tables changes nothing here.
struct LuaHostHooks {
    let make: Value.Handle
    let fragment: Value.Handle
    let hook: Value.Handle
    let delegate: Value.Handle
    let describe: Value.Handle
    let leave: Value.Handle
    let dispatch: Value.Handle
    let persist: Value.Handle
    let wrapContext: Value.Handle
    let appContext: Value.Handle
    let appCore: Value.Handle
    let migrate: Value.Handle
    let field: Value.Handle
    let call: Value.Handle

    init?(_ table: Value) {
        func handle(_ name: String) -> Value.Handle? {
            if case .handle(let handle)? = table[name] { return handle }
            return nil
        }
        guard let make = handle("make"), let fragment = handle("fragment"), let hook = handle("hook"),
            let delegate = handle("delegate"), let describe = handle("describe"), let leave = handle("leave"),
            let dispatch = handle("dispatch"), let persist = handle("persist"), let wrapContext = handle("wrap_context"),
            let appContext = handle("app_context"), let appCore = handle("app_core"), let migrate = handle("migrate"),
            let field = handle("field"), let call = handle("call")
        else { return nil }
        self.make = make
        self.fragment = fragment
        self.hook = hook
        self.delegate = delegate
        self.describe = describe
        self.leave = leave
        self.dispatch = dispatch
        self.persist = persist
        self.wrapContext = wrapContext
        self.appContext = appContext
        self.appCore = appCore
        self.migrate = migrate
        self.field = field
        self.call = call
    }
}
