/// How one snapshot of the tree becomes another, as the changes a presenter applies: what an
/// operation did, told from the tree before it and after it. Entries are matched by id, so an
/// entry that stayed is never told as gone and back.
extension NavigationSnapshot {
    /// The changes that turn this snapshot into `new`, in the order they are applied: entries
    /// made (at their places here), then from the top down what went (the popover, modals
    /// above the ones that stay, entries popped), the selected tab or the root replaced, and
    /// what came (entries pushed, new modals, the popover). None when the two are equal.
    ///
    /// Applying them in turn to this snapshot gives `new`: a stack is kept as far as its
    /// entries match by id, and what differs above that is popped and pushed; a modal stack or
    /// a tab is known by its bottom entry.
    func changes(to new: NavigationSnapshot) -> [NavigationChange] {
        var diff = Diff()
        let keepsPopover = popover != nil && new.popover != nil && Self.keeps(popover!, new.popover!)
        if keepsPopover, let old = popover, let now = new.popover, !old.isLoaded && now.isLoaded {
            diff.loaded.append(.loaded(now, at: .popover))
        }
        if popover != nil && !keepsPopover { diff.changes.append(.closedPopover) }

        var keptModals = 0
        while keptModals < modals.count, keptModals < new.modals.count,
              Self.sameStack(modals[keptModals], new.modals[keptModals]) {
            keptModals += 1
        }
        for _ in keptModals..<modals.count { diff.changes.append(.dismissedModal) }
        for m in 0..<keptModals { diff.stack(.modal(m), from: modals[m], to: new.modals[m]) }

        switch (root, new.root) {
        case (.stack(let old), .stack(let now)):
            diff.stack(.root, from: old, to: now)
        case (.tabs(let old, let oldSelected), .tabs(let now, let selected))
            where old.count == now.count && zip(old, now).allSatisfy(Self.sameStack):
            if selected != oldSelected { diff.changes.append(.selectedTab(selected)) }
            for t in old.indices { diff.stack(.tab(t), from: old[t], to: now[t]) }
        default:
            diff.changes.append(.replacedRoot(new.root))
        }

        for m in keptModals..<new.modals.count {
            guard let bottom = new.modals[m].first else { continue }
            diff.changes.append(.presentedModal(bottom))
            for entry in new.modals[m].dropFirst() { diff.changes.append(.pushed(entry, onto: .modal(m))) }
        }
        if let now = new.popover, !keepsPopover { diff.changes.append(.showedPopover(now)) }
        return diff.loaded + diff.changes
    }

    /// An entry that stays: the same one, and not unmade since (a change no event tells).
    private static func keeps(_ old: Entry, _ new: Entry) -> Bool {
        old.id == new.id && old.url == new.url && (new.isLoaded || !old.isLoaded)
    }

    /// A modal stack or tab that stays: its bottom entry does.
    private static func sameStack(_ old: [Entry], _ new: [Entry]) -> Bool {
        guard let oldBottom = old.first, let newBottom = new.first else { return false }
        return keeps(oldBottom, newBottom)
    }

    private struct Diff {
        var loaded: [NavigationChange] = []
        var changes: [NavigationChange] = []

        /// A stack that stays: its entries kept as far as they match, the rest popped and pushed.
        mutating func stack(_ stack: StackLocation, from old: [Entry], to new: [Entry]) {
            var kept = 0
            while kept < old.count, kept < new.count, NavigationSnapshot.keeps(old[kept], new[kept]) {
                if !old[kept].isLoaded && new[kept].isLoaded { loaded.append(.loaded(new[kept], at: Self.location(kept, in: stack))) }
                kept += 1
            }
            if old.count > kept { changes.append(.popped(count: old.count - kept, from: stack)) }
            for entry in new[kept...] { changes.append(.pushed(entry, onto: stack)) }
        }

        private static func location(_ index: Int, in stack: StackLocation) -> Location {
            switch stack {
            case .root: return .root(index: index)
            case .tab(let t): return .tab(t, index: index)
            case .modal(let m): return .modal(m, index: index)
            }
        }
    }
}
