/// The open a route's guard stopped (docs/lua-api.md, "Guards"): kept as `pendingOpen`, asked for
/// again when the outermost operation that committed a change ends, or at `resume()`, and dropped
/// when it expires or fails.
extension Navigator {
    /// Asks the guard of the pending open again: it opens when the guard lets it through (as a
    /// link from outside when it was one, with its presentation), and stays when the guard still
    /// stops it (nothing is opened instead). One that expired, or that fails to open (its guard
    /// raises, its URL no longer opens, its constructor fails), is dropped; a failure is thrown.
    @discardableResult
    public func resume() throws -> ResumeOutcome<Controller> {
        try operation { try resumePending() }
    }

    /// Drops the pending open, if any; whether there was one.
    @discardableResult
    public func dropPending() -> Bool {
        guard pendingOpen != nil else { return false }
        setPending(nil)
        return true
    }

    /// Puts back a pending open saved with the state (`restore`), or replaces the one waiting.
    /// One that has expired by the navigator's clock is not kept, with a warning: a link from
    /// outside that vanishes says so.
    public func keepPending(_ pending: PendingOpen) {
        if let expired = expiry(of: pending) {
            warn("dropped the pending '\(pending.request.url)': \(expired)")
            return
        }
        setPending(pending)
    }

    func keepPending(_ request: NavigationRequest) {
        var kept = request
        kept.opener = nil
        setPending(PendingOpen(request: kept, since: clock()))
        stopRevision = pendingRevision
    }

    private func setPending(_ pending: PendingOpen?) {
        pendingOpen = pending
        pendingRevision &+= 1
        pendingChanged?()
    }

    func resumePending() throws -> ResumeOutcome<Controller> {
        guard let pending = pendingOpen else { return .nothingPending }
        // Asked for from inside a change (a constructor, a hook), it is refused and goes on
        // waiting: it would fail as busy, and that is no failure of its own.
        try refuseWhileChanging("open", url: pending.request.url)
        if let expired = expiry(of: pending) {
            setPending(nil)
            warn("dropped the pending '\(pending.request.url)': \(expired)")
            return .nothingPending
        }
        // The open may stop another in its turn (an action whose own open a guard stops): that
        // one waits now, and is not dropped with this one.
        let revision = pendingRevision
        func settled() { if pendingRevision == revision { setPending(nil) } }
        do {
            let controller = try open(pending.request, resuming: true)
            settled()
            return .opened(controller)
        } catch is GuardStop {
            return .waiting
        } catch {
            settled()
            throw error
        }
    }

    /// Why `pending` has expired by the navigator's clock, or nil while it may still wait.
    private func expiry(of pending: PendingOpen) -> String? {
        let now = clock()
        guard pending.isExpired(expiration: pendingExpiration, now: now) else { return nil }
        if pending.since > now { return "it was stopped after the time the clock gives now (the clock went back)" }
        return "it waited longer than \(Self.seconds(pendingExpiration))"
    }

    private static func seconds(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? "\(Int64(value)) s" : "\(value) s"
    }

    /// After the outermost operation that began at `start` and committed a change (unless a
    /// guard stopped its own open, which was asked just now): asks the pending open's guard
    /// again, as an operation of its own. What goes wrong is a warning, since the operation that
    /// led here is done.
    func resumeAfterChange(since start: (generation: Int, pending: Int)) {
        guard let url = pendingOpen?.request.url, generation != start.generation, stopRevision <= start.pending else { return }
        do {
            _ = try operation { try resumePending() }
        } catch {
            warn("dropped the pending '\(url)': \(error)")
        }
    }
}
