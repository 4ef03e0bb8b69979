import OrderedCollections

/// What a pattern's query and fragment components bind in one URL, or the first component that
/// does not match. The search and the explanation both read a pattern's query and fragment here;
/// only the explanation turns a mismatch into words.
struct QueryFragmentMatch {
    /// The first query or fragment component that does not match, with what the explanation
    /// names.
    enum Mismatch {
        case queryMissing(key: String, expected: String)
        case queryDiffers(key: String, actual: String, expected: String)
        case queryNotSingleLiteral(key: String, expected: String)
        case queryNotConvertible(key: String, text: String, type: String)
        case queryNotSingleParam(key: String, type: String)
        case fragmentMissing
        case fragmentDiffers(fragment: String, expected: String)
        case fragmentNotConvertible(fragment: String, type: String)
    }

    enum Outcome {
        case bound(QueryFragmentMatch)
        case mismatch(Mismatch)
    }

    let score: Precedence.QueryScore
    /// By query component; nil where nothing is bound.
    let queryValues: [Value?]
    let consumedKeys: [String]
    let fragmentValue: Value?

    @inline(__always)
    static func bind(_ pattern: Pattern, _ url: NavigationURL, _ index: RouteIndex) throws -> Outcome {
        var queryValues = [Value?]()
        var consumed = [String]()
        var score = Precedence.QueryScore()
        for n in 0..<pattern.queryCount {
            let valueIndex = pattern.queryValueIndex(n)
            let key = pattern.literal(valueIndex - 1)
            let present = url.query[key]
            if pattern.rank(valueIndex) == Precedence.literalRank {
                let expected = pattern.literal(valueIndex)
                switch present {
                case nil:
                    return .mismatch(.queryMissing(key: key, expected: expected))
                case .string(let actual)?:
                    guard actual == expected else { return .mismatch(.queryDiffers(key: key, actual: actual, expected: expected)) }
                    queryValues.append(nil)
                case _?:
                    return .mismatch(.queryNotSingleLiteral(key: key, expected: expected))
                }
            } else {
                let type = pattern.paramType(valueIndex)
                switch present {
                case nil:
                    queryValues.append(nil)
                case .string(let text)?:
                    guard let value = try index.type(named: type)?.convert(text) else {
                        return .mismatch(.queryNotConvertible(key: key, text: text, type: type))
                    }
                    queryValues.append(value)
                case .bool(true)? where type == "bool":
                    queryValues.append(.bool(true))
                case _?:
                    return .mismatch(.queryNotSingleParam(key: key, type: type))
                }
            }
            if present != nil {
                score.add(rank: pattern.rank(valueIndex))
                consumed.append(key)
            }
        }
        var fragmentValue: Value?
        if let fragmentIndex = pattern.fragmentIndex {
            guard let fragment = url.fragment else { return .mismatch(.fragmentMissing) }
            if pattern.rank(fragmentIndex) == Precedence.literalRank {
                let expected = pattern.literal(fragmentIndex)
                guard fragment == expected else { return .mismatch(.fragmentDiffers(fragment: fragment, expected: expected)) }
            } else {
                let type = pattern.paramType(fragmentIndex)
                guard let value = try index.type(named: type)?.convert(fragment) else {
                    return .mismatch(.fragmentNotConvertible(fragment: fragment, type: type))
                }
                fragmentValue = value
            }
        }
        return .bound(QueryFragmentMatch(score: score, queryValues: queryValues, consumedKeys: consumed, fragmentValue: fragmentValue))
    }
}
