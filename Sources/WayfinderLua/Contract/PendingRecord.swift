import OrderedCollections
import Wayfinder

/// What `nav:pending()` (and a launched app's `pending()` in a spec) answers of the open a guard
/// keeps waiting, declared once: `since` in whole seconds of the host's clock. The LuaLS
/// definitions' `wayfinder.pending` must list these fields (a test compares the two).
package enum PendingRecord: String, CrossingRecord {
    case url, link, presentation, since

    /// The record of `pending`; `presentation` only when the open asked for one.
    package static func value(of pending: PendingOpen) -> Value {
        var record = OrderedDictionary<String, Value>(minimumCapacity: allCases.count)
        for field in allCases {
            switch field {
            case .url: record[field.rawValue] = .string(pending.request.url)
            case .link: record[field.rawValue] = .bool(pending.request.fromOutside)
            case .presentation: record[field.rawValue] = pending.request.presentation.map { .string($0.rawValue) }
            case .since: record[field.rawValue] = .int(Int64(pending.since.timeIntervalSince1970.rounded(.down)))
            }
        }
        return .map(record)
    }
}
