import Foundation
import OrderedCollections
import Wayfinder

/// A saved state of another version of the app (docs/persistence.md, "Versions and migrations"):
/// every state records the version of the app that saved it (`wf.app { version = N }`, else 1).
/// One of an older version is handed to the app's `migrate(state, from, to)` before it is
/// restored (lua/wayfinder/migration_tree.lua gives it the tree by name and checks what comes back);
/// one of a newer version is not restored.
extension AppHost {
    /// False when a newer version of the app saved `saved`: it is set aside (kept, with a
    /// warning), and the app starts fresh.
    func admitsVersion(of saved: NavigationState) -> Bool {
        guard saved.appVersion > config.version else { return true }
        setStateAside(.newer, because: "was saved by version \(saved.appVersion) of the app, newer than this one (version \(config.version))")
        return false
    }

    /// `migrated(_:)` at launch: nil when the migration failed, the state then set aside with a
    /// warning that names the migration's file:line and why.
    func migratedForLaunch(_ saved: NavigationState) -> NavigationState? {
        do {
            return try migrated(saved)
        } catch {
            setStateAside(.unmigrated, because: "could not be migrated: \(error)")
            return nil
        }
    }

    /// `saved` at this app's version: handed to `migrate` when an older version saved it (a
    /// state of an older version and an app without `migrate` is taken as it is). What `migrate`
    /// returns must be a state again: its tree (and the open a guard keeps waiting) replaces the
    /// saved one, while the app's name, the save time and the persistence mode stay the saved ones.
    package func migrated(_ saved: NavigationState) throws(MigrationError) -> NavigationState {
        guard saved.appVersion < config.version else { return saved }
        var result = saved
        if let migration = config.migration, let hooks = bridge.hooks {
            func failure(_ reason: String) -> MigrationError {
                MigrationError(from: saved.appVersion, to: config.version, migration: migration, reason: reason)
            }
            let document: OrderedDictionary<String, Value>
            do { document = try Self.document(of: saved) } catch { throw failure("the saved state cannot be handed to it: \(error)") }
            // A migration turns data into data: it may neither save (which would replace the
            // file it migrates) nor restore nor navigate.
            let wasRestoring = restoringState
            restoringState = true
            defer { restoringState = wasRestoring }
            let answer: Value
            do {
                answer = try navigator.reserved(for: "migrating the saved state") {
                    try state.call(hooks.migrate, [.map(document), .int(Int64(saved.appVersion)), .int(Int64(config.version))],
                                   wrapperLevels: NavigationState.documentLevels).first ?? .null
                }
            } catch {
                throw failure((error as? ScriptError)?.message ?? String(describing: error))
            }
            do { result = try Self.state(from: answer, replacing: document) } catch {
                throw failure("the state it returned is not valid: \(error)")
            }
        }
        result.appVersion = config.version
        return result
    }

    // MARK: The document migrate sees

    private typealias Member = StateDocument.Member
    private typealias RootField = StateDocument.RootField
    private typealias ContextField = StateDocument.ContextField

    /// The state as its file holds it, except that a context's stored nils, which a Lua table
    /// cannot hold, cross as the list `nils` of their keys.
    private static func document(of saved: NavigationState) throws -> OrderedDictionary<String, Value> {
        guard var document = saved.document.mapValue else { throw MigrationDocumentError("the state is not an object") }
        if let contexts = document[Member.contexts.rawValue]?.arrayValue {
            document[Member.contexts.rawValue] = .array(contexts.map { context in
                guard var fields = context.mapValue, let values = fields[ContextField.values.rawValue]?.mapValue else { return context }
                let nils = values.filter { $0.value.isNull }.keys
                guard !nils.isEmpty else { return context }
                fields[ContextField.values.rawValue] = .map(values.filter { !$0.value.isNull })
                fields[MigrationTree.ContextNils.nils.rawValue] = .array(nils.map(Value.string))
                return .map(fields)
            })
        }
        return document
    }

    /// The state `migrate` answered (its root, modals, popover, waiting open and contexts, by
    /// position, as lua/wayfinder/migration_tree.lua turns them back), over the saved `document`'s
    /// other fields.
    private static func state(from answer: Value, replacing document: OrderedDictionary<String, Value>) throws -> NavigationState {
        guard let migrated = answer.mapValue else { throw MigrationDocumentError("it is a \(answer.kindName)") }
        // An empty Lua table reads as an empty object; these are lists.
        func list(_ value: Value?) -> Value {
            guard let value else { return .array([]) }
            if case .map(let map) = value, map.isEmpty { return .array([]) }
            return value
        }
        func lists(_ value: Value?) -> Value { .array((list(value).arrayValue ?? []).map(list)) }
        var result = document
        if var root = migrated[Member.root.rawValue]?.mapValue {
            if root[RootField.kind.rawValue] == .string(StateDocument.RootKind.tabs.rawValue) { root[RootField.tabs.rawValue] = lists(root[RootField.tabs.rawValue]) } else { root[RootField.entries.rawValue] = list(root[RootField.entries.rawValue]) }
            result[Member.root.rawValue] = .map(root)
        }
        result[Member.modals.rawValue] = lists(migrated[Member.modals.rawValue])
        result[Member.popover.rawValue] = migrated[Member.popover.rawValue]
        // The waiting open migrate kept (or rewrote, or gave); none when it dropped it.
        result[Member.pending.rawValue] = migrated[Member.pending.rawValue]
        result[Member.contexts.rawValue] = .array((list(migrated[Member.contexts.rawValue]).arrayValue ?? []).map { context in
            guard var fields = context.mapValue, let nils = fields.removeValue(forKey: MigrationTree.ContextNils.nils.rawValue)?.arrayValue else { return context }
            var values = fields[ContextField.values.rawValue]?.mapValue ?? [:]
            for key in nils.compactMap(\.stringValue) { values[key] = .null }
            fields[ContextField.values.rawValue] = .map(values)
            return .map(fields)
        })
        let state = try NavigationState(document: .map(result))
        try state.validate()
        return state
    }

    private struct MigrationDocumentError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// Why a saved state could not be migrated to the app's version.
public struct MigrationError: Error, CustomStringConvertible {
    /// The saved state's app version.
    public let from: Int
    /// The app's version now.
    public let to: Int
    /// Where the app's `migrate` is defined (`file:line`).
    public let migration: String
    /// Why the migration failed.
    public let reason: String

    /// The versions, the migration's place and the reason, in one sentence.
    public var description: String {
        "its migration from version \(from) to \(to) (migrate at \(migration)) failed: \(reason)"
    }
}
