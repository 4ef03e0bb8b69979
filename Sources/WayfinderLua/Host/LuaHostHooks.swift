import Wayfinder

/// The Lua functions the host calls (lua/wayfinder/host.lua gathers them): making a controller,
/// dispatching a fragment, calling a controller's hook, calling a delegate hook, naming a
/// controller's class, forgetting a controller that left the tree, and dispatching a context
/// set to Lua observers. Taken once at start-up, so a script that rewrites the modules' tables
/// changes nothing here.
struct LuaHostHooks {
    let make: Value.Handle
    let fragment: Value.Handle
    let hook: Value.Handle
    let delegate: Value.Handle
    let describe: Value.Handle
    let leave: Value.Handle
    let dispatch: Value.Handle

    init?(_ table: Value) {
        guard case .handle(let make)? = table["make"], case .handle(let fragment)? = table["fragment"],
            case .handle(let hook)? = table["hook"], case .handle(let delegate)? = table["delegate"],
            case .handle(let describe)? = table["describe"], case .handle(let leave)? = table["leave"],
            case .handle(let dispatch)? = table["dispatch"]
        else { return nil }
        self.leave = leave
        self.dispatch = dispatch
        self.describe = describe
        self.make = make
        self.fragment = fragment
        self.hook = hook
        self.delegate = delegate
    }
}
