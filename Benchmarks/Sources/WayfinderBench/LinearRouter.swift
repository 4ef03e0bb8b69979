import Wayfinder

/// The baseline: Three20's TTURLMap. Patterns kept in one array sorted by specificity (a literal
/// counts 2, a param 1, a catch-all 0; ties by the kinds left to right, then the text), and a URL
/// is matched by walking the array and taking the first pattern that accepts it. It reads the URL
/// with Wayfinder's own reader and converts typed params the same way, so the difference from
/// Wayfinder is the search alone, not the URL parsing or the values bound.
final class LinearRouter {
    private enum Piece {
        case literal(String)
        case int(String)
        case string(String)
        case catchAll(String)
    }

    private struct Entry {
        let id: Int
        let scheme: String
        let host: String
        let path: [Piece]
        let hasCatchAll: Bool
        let specificity: Int
        let ranks: [UInt8]
        let text: String
    }

    struct Match {
        let id: Int
        let params: [(String, Value)]
    }

    private var entries: [Entry] = []

    init(_ routes: [RouteSet.RouteSpec]) {
        var entries = [Entry]()
        entries.reserveCapacity(routes.count)
        for (id, route) in routes.enumerated() {
            guard case .literal(let host) = route.components[0] else { preconditionFailure("hosts are literals here") }
            var pieces = [Piece]()
            var specificity = 2
            var ranks: [UInt8] = [3]
            for component in route.components.dropFirst() {
                switch component {
                case .literal(let text): pieces.append(.literal(text)); specificity += 2; ranks.append(3)
                case .param(let name, .int): pieces.append(.int(name)); specificity += 1; ranks.append(2)
                case .param(let name, .string): pieces.append(.string(name)); specificity += 1; ranks.append(1)
                case .catchAll(let name): pieces.append(.catchAll(name)); ranks.append(0)
                }
            }
            let hasCatchAll: Bool
            if case .catchAll? = pieces.last { hasCatchAll = true } else { hasCatchAll = false }
            entries.append(Entry(id: id, scheme: "app", host: host, path: pieces, hasCatchAll: hasCatchAll,
                                 specificity: specificity, ranks: ranks, text: route.wayfinderPattern))
        }
        // Three20 kept its pattern array sorted by specificity as patterns were added.
        entries.sort { a, b in
            if a.specificity != b.specificity { return a.specificity > b.specificity }
            if a.ranks != b.ranks { return a.ranks.lexicographicallyPrecedes(b.ranks, by: >) }
            return a.text < b.text
        }
        self.entries = entries
    }

    func match(_ text: String) -> Match? {
        guard let url = try? NavigationURL(text), let host = url.host else { return nil }
        let hostKey = host.lowercased()
        let segments = url.segments
        for entry in entries {
            if let params = accepts(entry, scheme: url.scheme, host: hostKey, segments: segments) {
                return Match(id: entry.id, params: params)
            }
        }
        return nil
    }

    private func accepts(_ entry: Entry, scheme: String, host: String, segments: [String]) -> [(String, Value)]? {
        guard entry.scheme == scheme, entry.host == host else { return nil }
        if entry.hasCatchAll {
            guard segments.count >= entry.path.count else { return nil }
        } else {
            guard segments.count == entry.path.count else { return nil }
        }
        var params = [(String, Value)]()
        for (index, piece) in entry.path.enumerated() {
            let segment = segments[index]
            switch piece {
            case .literal(let literal):
                guard literal == segment else { return nil }
            case .int(let name):
                guard let value = ParamType.parseInt(segment) else { return nil }
                params.append((name, .int(value)))
            case .string(let name):
                params.append((name, .string(segment)))
            case .catchAll(let name):
                params.append((name, .string(segments[index...].joined(separator: "/"))))
            }
        }
        return params
    }
}
