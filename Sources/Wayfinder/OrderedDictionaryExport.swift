// Queries, params and context values keep the order they were written in, so the public API
// speaks of `OrderedDictionary`: it is re-exported, and a program that uses Wayfinder names the
// type without depending on swift-collections itself.
@_exported import struct OrderedCollections.OrderedDictionary
