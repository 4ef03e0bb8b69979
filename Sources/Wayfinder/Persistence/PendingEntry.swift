/// A restored entry waiting to be made: what was saved for it, the context it had (rebuilt),
/// and whatever the host hands its factory with the request.
public struct PendingEntry {
    /// The saved screen.
    public let saved: NavigationState.Entry
    /// Its context, rebuilt.
    public let context: ContextChain?
    /// The payload handed over with it, if any.
    public let payload: Value?

    /// An entry to restore from `saved`, with its context and payload.
    public init(saved: NavigationState.Entry, context: ContextChain?, payload: Value?) {
        self.saved = saved
        self.context = context
        self.payload = payload
    }

    /// The request that makes the entry's controller, with its saved query and state.
    public var request: NavigationRequest {
        NavigationRequest(url: saved.url, query: saved.query ?? [:], state: saved.state, payload: payload)
    }
}
