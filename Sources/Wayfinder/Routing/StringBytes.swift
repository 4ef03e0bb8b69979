extension String {
    /// The string's UTF-8 bytes in place (a native string's are contiguous; a small one's are
    /// copied to the stack), without the copy of the string that `withUTF8` needs: the trie's
    /// literal lookups and the pattern's pieces read text this way on every match.
    @inline(__always)
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }
}
