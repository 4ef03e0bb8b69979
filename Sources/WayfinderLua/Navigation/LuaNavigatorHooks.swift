import Wayfinder

/// The Lua functions of lua/wayfinder/navigator.lua that the host calls: making a controller,
/// dispatching a fragment, calling a controller's hook, calling a delegate hook, naming a
/// controller's class. Taken once at
/// start-up, so a script that rewrites the module's tables changes nothing here.
struct LuaNavigatorHooks {
    let make: Value.Handle
    let fragment: Value.Handle
    let hook: Value.Handle
    let delegate: Value.Handle
    let describe: Value.Handle

    init?(_ table: Value) {
        guard case .handle(let make)? = table["make"], case .handle(let fragment)? = table["fragment"],
            case .handle(let hook)? = table["hook"], case .handle(let delegate)? = table["delegate"],
            case .handle(let describe)? = table["describe"]
        else { return nil }
        self.describe = describe
        self.make = make
        self.fragment = fragment
        self.hook = hook
        self.delegate = delegate
    }
}
