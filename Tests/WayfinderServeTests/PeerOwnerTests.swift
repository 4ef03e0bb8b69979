import Foundation
import Testing
@testable import WayfinderServe
#if canImport(Glibc)
import Glibc
#endif

/// Who a connection counts for.
@Suite("peer owner")
struct PeerOwnerTests {
    /// A loopback connection made by this process, and the server's end of it.
    func loopbackPair() throws -> (client: RawClient, accepted: Int32, listener: Int32) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                guard bind(listener, $0, length) == 0, listen(listener, 4) == 0, getsockname(listener, $0, &length) == 0 else {
                    throw RawClient.Failure(description: "listen: \(errno)")
                }
            }
        }
        let client = try RawClient(port: Int(UInt16(bigEndian: address.sin_port)))
        let accepted = accept(listener, nil, nil)
        guard accepted >= 0 else { throw RawClient.Failure(description: "accept: \(errno)") }
        return (client, accepted, listener)
    }

    @Test func aLoopbackConnectionCountsForTheUserAtItsOtherEnd() throws {
        let (client, accepted, listener) = try loopbackPair()
        defer { close(accepted); close(listener); withExtendedLifetime(client) {} }
        #if os(Linux)
        #expect(PeerOwner.client(of: accepted) == "user \(getuid())")
        #else
        #expect(PeerOwner.client(of: accepted) == "address 127.0.0.1")
        #endif
    }

    @Test func aSocketWhoseOwnerCannotBeToldCountsByItsAddressOrNotAtAll() throws {
        let (client, accepted, listener) = try loopbackPair()
        defer { close(accepted); close(listener); withExtendedLifetime(client) {} }
        // Asked about a peer port nobody uses, the kernel names no owner.
        let unused = PeerOwner.End(family: AF_INET, bytes: [127, 0, 0, 1], port: 1)
        let local = PeerOwner.End(family: AF_INET, bytes: [127, 0, 0, 1], port: 2)
        #expect(PeerOwner.owner(peer: unused, local: local) == nil)
        // A descriptor that is not a connected socket.
        #expect(PeerOwner.client(of: listener) == "unknown")
        #expect(PeerOwner.End(family: AF_INET, bytes: [10, 0, 0, 1], port: 80).text == "10.0.0.1")
        #expect(!PeerOwner.End(family: AF_INET, bytes: [10, 0, 0, 1], port: 80).isLoopback)
        #expect(PeerOwner.End(family: AF_INET6, bytes: [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 127, 0, 0, 1], port: 80).isLoopback)
    }
}
