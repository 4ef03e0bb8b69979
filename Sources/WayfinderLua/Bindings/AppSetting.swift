import Wayfinder

/// The settings both `wf.app { ... }` and `wf.navigator` set (`nav.persistence = "top"`,
/// `AppOption.settings`): the one check and message for each, whichever sets it. The list is
/// exported to the Lua side, which routes `nav.<setting>` to the host by it.
extension AppOption {
    /// Sets the setting in `config` from `value`, or refuses the value; `subject` names the
    /// setting as the script wrote it (`nav.persistence`, `wf.app: persistence`).
    func apply(_ value: Value, to config: inout AppConfig, as subject: String) throws(Refusal) {
        switch self {
        case .persistence:
            config.persistence = try PersistenceMode.option(value.stringValue ?? String(describing: value), for: subject, failing: Refusal.init)
        case .expiration:
            config.expiration = try Self.seconds(value, as: subject)
        case .pendingExpiration:
            config.pendingExpiration = try Self.seconds(value, as: subject)
        case .name, .tabs, .root, .version, .migrate, .linkPrefixes:
            throw Refusal("\(subject) is not a setting")
        }
    }

    private static func seconds(_ value: Value, as subject: String) throws(Refusal) -> Double {
        guard let seconds = value.doubleValue, seconds >= 0, seconds.isFinite else {
            throw Refusal("\(subject) must be a number of seconds >= 0 (0 = never), got \(value)")
        }
        return seconds
    }

    /// The setting's value in `config`, as a script reads it.
    func value(in config: AppConfig) -> Value {
        switch self {
        case .persistence: return .string(config.persistence.rawValue)
        case .expiration: return Self.value(ofSeconds: config.expiration)
        case .pendingExpiration: return Self.value(ofSeconds: config.pendingExpiration)
        case .name, .tabs, .root, .version, .migrate, .linkPrefixes: return .null
        }
    }

    private static func value(ofSeconds seconds: Double) -> Value {
        seconds.rounded() == seconds && abs(seconds) < 1e15 ? .int(Int64(seconds)) : .double(seconds)
    }
}
