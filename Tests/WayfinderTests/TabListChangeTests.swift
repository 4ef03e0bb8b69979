import Testing
@testable import Wayfinder

/// A saved state following the app's tab list as it is now.
@Suite("Saved state: the app's tab list changed")
struct TabListChangeTests {
    let saved = NavigationState(root: .tabs([
        [.init(url: "tt://menu/1"), .init(url: "tt://food/a")],
        [.init(url: "tt://menu/2"), .init(url: "tt://food/b")],
    ], selected: 1))

    @Test func anUnchangedListChangesNothing() {
        let (state, change) = saved.following(tabs: ["tt://menu/1", "TT://MENU/2"])
        #expect(state == saved)
        #expect(change == nil)
        #expect(saved.following(tabs: []).state == saved, "an app without tabs leaves the root alone")
    }

    @Test func keptTabsKeepTheirStacksNewOnesAppearRemovedOnesGo() {
        let (state, change) = saved.following(tabs: ["tt://menu/2", "tt://menu/3"])
        #expect(state.root == .tabs([
            [.init(url: "tt://menu/2"), .init(url: "tt://food/b")],
            [.init(url: "tt://menu/3")],
        ], selected: 0))
        #expect(change == "the app's tabs changed since the state was saved: added tt://menu/3; removed tt://menu/1 (with the screens saved in it)")
    }

    @Test func aReorderedListIsFollowedQuietly() {
        let (state, change) = saved.following(tabs: ["tt://menu/2", "tt://menu/1"])
        #expect(state.root == .tabs([
            [.init(url: "tt://menu/2"), .init(url: "tt://food/b")],
            [.init(url: "tt://menu/1"), .init(url: "tt://food/a")],
        ], selected: 0))
        #expect(change == nil)
    }

    @Test func aSavedStackBecomesTheTabItStartsWith() {
        let stack = NavigationState(root: .stack([.init(url: "tt://menu/1"), .init(url: "tt://food/a")]))
        let (state, change) = stack.following(tabs: ["tt://menu/1", "tt://menu/2"])
        #expect(state.root == .tabs([[.init(url: "tt://menu/1"), .init(url: "tt://food/a")], [.init(url: "tt://menu/2")]], selected: 0))
        #expect(change?.contains("added tt://menu/2") == true)
    }
}
