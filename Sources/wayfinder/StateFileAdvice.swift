import WayfinderLua

/// What a person at the command line can do about an error of the navigation state: the options
/// that name the state file. The library's messages say what went wrong; the options are the
/// command line's.
enum StateFileAdvice {
    /// `error`'s message, with the options that help when there are some.
    static func message(for error: any Error) -> String {
        switch error as? PersistenceError {
        case .noStateStore?: "\(error) (wayfinder run and open keep the state in a file; --state FILE names it)"
        case .anotherApp?: "\(error) (give another state file, or --no-state)"
        default: "\(error)"
        }
    }
}
