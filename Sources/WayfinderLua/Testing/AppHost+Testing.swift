import Wayfinder

extension AppHost {
    /// The metatable driver userdata share: the one the first launch brought (Wayfinder adds
    /// its `__gc`, which ends the app).
    func driverMetatable(_ brought: @autoclosure () throws(ScriptError) -> LuaRef) throws(ScriptError) -> LuaRef {
        if let driverMetatableRef { return driverMetatableRef }
        let made = try brought()
        driverMetatableRef = made
        return made
    }
}
