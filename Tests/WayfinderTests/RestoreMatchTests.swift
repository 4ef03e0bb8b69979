import Testing
@testable import Wayfinder

/// Texts a param type was asked to convert, in order.
private final class Conversions {
    var texts: [String] = []
}

/// A restore matches each saved URL once: the entry's check that its URL still opens is the
/// match its controller is made from.
@Suite("A restore matches each saved URL once")
struct RestoreMatchTests {
    private static func harness(_ conversions: Conversions) throws -> NavigatorHarness {
        let h = try NavigatorHarness([])
        try h.routes.registerType("counted") { text in
            conversions.texts.append(text)
            return .string(text)
        }
        try h.routes.add("tt://note/(id:counted)", target: "note")
        return h
    }

    @Test func theVisibleEntryIsMadeFromTheMatchItWasRestoredBy() throws {
        let conversions = Conversions()
        let h = try Self.harness(conversions)
        let state = NavigationState(root: .stack([.init(url: "tt://note/a"), .init(url: "tt://note/b")]),
                                    modals: [[.init(url: "tt://note/c")]])
        #expect(try h.navigator.restore(state))
        #expect(h.visible == "tt://note/c")
        #expect(h.made == ["tt://note/c"])
        #expect(conversions.texts == ["a", "b", "c"])
    }

    @Test func anEntryMadeLaterIsMatchedAgainstTheRoutesOfThen() throws {
        let conversions = Conversions()
        let h = try Self.harness(conversions)
        let state = NavigationState(root: .stack([.init(url: "tt://note/a"), .init(url: "tt://note/b")]))
        #expect(try h.navigator.restore(state))
        // A route added after the restore wins for the entry below, made when it is about to be
        // seen: the restore's matches are not kept past it.
        try h.routes.add("tt://note/a", target: "literal")
        #expect(try h.navigator.back())
        #expect(h.visible == "tt://note/a")
        #expect(h.made == ["tt://note/b", "tt://note/a"])
        #expect(h.navigator.tree.visible?.controller?.pattern == "literal")
    }

    @Test func aSavedURLThatNoLongerMatchesIsDroppedWithoutMakingAnything() throws {
        let conversions = Conversions()
        let h = try Self.harness(conversions)
        var warnings: [String] = []
        h.navigator.warn = { warnings.append($0) }
        let state = NavigationState(root: .stack([.init(url: "tt://note/a"), .init(url: "tt://gone/b")]))
        #expect(try h.navigator.restore(state))
        #expect(h.visible == "tt://note/a")
        #expect(h.made == ["tt://note/a"])
        #expect(conversions.texts == ["a"])
        #expect(warnings.count == 1)
    }
}
