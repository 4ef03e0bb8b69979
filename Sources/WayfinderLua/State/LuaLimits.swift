import CLuaShim

/// The bounds one Lua state runs within.
public struct LuaLimits: Sendable, Equatable {
    /// Bytes the state may hold at once. Growth past it fails with a memory error.
    public var memoryBytes: Int
    /// How long one call from Swift into Lua may run, nested calls included. Past it the script
    /// stops with a timeout. Zero or negative means no limit.
    public var timeBudget: Duration

    /// Limits of `memoryBytes` and `timeBudget` (64 MiB and one second unless given).
    public init(memoryBytes: Int = 64 << 20, timeBudget: Duration = .seconds(1)) {
        self.memoryBytes = memoryBytes
        self.timeBudget = timeBudget
    }

    /// 64 MiB, and one second for each call into Lua.
    public static let standard = LuaLimits()

    package var timeBudgetNanoseconds: Int64 {
        let (seconds, attoseconds) = timeBudget.components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds > 0 ? .max : 0 }
        return max(0, scaled.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue)
    }

    /// "64 MiB", "512 KiB" or "1000 bytes", as messages print the limit.
    var memoryDescription: String {
        if memoryBytes >= 1 << 20 && memoryBytes % (1 << 20) == 0 { return "\(memoryBytes >> 20) MiB" }
        if memoryBytes >= 1 << 10 && memoryBytes % (1 << 10) == 0 { return "\(memoryBytes >> 10) KiB" }
        return "\(memoryBytes) bytes"
    }
}

extension LuaState {
    /// Throws the budget's timeout when the running call has used up its time: host work done for
    /// a script (copying files, say) calls this as it goes, so it counts against the same budget.
    public func checkTimeBudget() throws(ScriptError) {
        guard wf_budget_spent(shim) != 0 else { return }
        throw ScriptError(kind: .timeout, message: budgetExceeded)
    }

    /// Whether the running call has used up its time (then it counts as having hit the budget).
    package var isBudgetSpent: Bool { wf_budget_spent(shim) != 0 }

    /// The budget's message: the budget of the running call's deadline, which is the state's own
    /// or, for a call made from inside another state's (an app a spec drives), that call's when
    /// it ends first.
    package var budgetExceeded: String {
        "time budget of \(shim.pointee.deadline_budget_ns / 1_000_000) ms exceeded"
    }
}
