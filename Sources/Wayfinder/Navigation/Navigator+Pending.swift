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
    /// One that has expired by the navigator's clock is not kept.
    public func keepPending(_ pending: PendingOpen) {
        guard !pending.isExpired(expiration: pendingExpiration, now: clock()) else { return }
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
    }

    func resumePending() throws -> ResumeOutcome<Controller> {
        guard let pending = pendingOpen else { return .nothingPending }
        if pending.isExpired(expiration: pendingExpiration, now: clock()) {
            setPending(nil)
            warn("dropped the pending '\(pending.request.url)': it waited longer than \(Self.seconds(pendingExpiration))")
            return .nothingPending
        }
        do {
            let controller = try open(pending.request, resuming: true)
            setPending(nil)
            return .opened(controller)
        } catch is GuardStop {
            return .waiting
        } catch {
            setPending(nil)
            throw error
        }
    }

    private static func seconds(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? "\(Int64(value)) s" : "\(value) s"
    }

    /// Runs a public operation. When the outermost one ends having committed a change, a pending
    /// open is tried again; what goes wrong then is a warning, since the operation itself is done.
    /// An operation whose own open a guard stopped does not ask that guard again at once.
    func operation<T>(_ body: () throws -> T) throws -> T {
        let start = (generation: generation, pending: pendingRevision)
        depth += 1
        defer {
            depth -= 1
            if depth == 0, pendingOpen != nil, generation != start.generation, stopRevision <= start.pending { resumeAfterChange() }
        }
        return try body()
    }

    private func resumeAfterChange() {
        guard let url = pendingOpen?.request.url else { return }
        depth += 1
        defer { depth -= 1 }
        do {
            _ = try resumePending()
        } catch {
            warn("dropped the pending '\(url)': \(error)")
        }
    }
}
