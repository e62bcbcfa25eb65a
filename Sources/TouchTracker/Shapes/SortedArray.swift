/// Arrays kept in ascending order: the stacking order of lines and circles (IDs are handed out in drawing order)
/// and the grid's cells.
extension Array where Element: Comparable {
    /// Inserts keeping ascending order. New shapes are almost always on top, so that case appends.
    mutating func insertSorted(_ element: Element) {
        if let last, last > element {
            insert(element, at: partitioningIndex { $0 > element })
        } else {
            append(element)
        }
    }

    /// Where `element` stands, by binary search; nil when it is not there.
    func sortedPosition(of element: Element) -> Int? {
        let low = partitioningIndex { $0 >= element }
        return low < count && self[low] == element ? low : nil
    }

    /// The first index whose element satisfies `predicate`, for a predicate that is false then true.
    func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if predicate(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
