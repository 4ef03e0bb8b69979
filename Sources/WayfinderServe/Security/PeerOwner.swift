import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Who a connection is from, as far as the machine can tell: for a connection over loopback, the
/// user owning the other end (Linux's socket diagnostics name the owner of any local TCP socket,
/// as `ss -e` shows it), so that everyone on the machine, all coming from 127.0.0.1, counts as a
/// client of their own; for any other connection, or where that cannot be told, its peer's
/// address.
enum PeerOwner {
    /// The client a connected TCP socket counts for: `user N` or `address A`.
    static func client(of descriptor: Int32) -> String {
        guard let peer = address(descriptor, getpeername), let local = address(descriptor, getsockname) else { return "unknown" }
        if peer.isLoopback, let uid = owner(peer: peer, local: local) { return "user \(uid)" }
        return "address \(peer.text)"
    }

    /// One end of a TCP connection: family, address bytes (4 or 16, in network order), port.
    struct End {
        let family: Int32
        let bytes: [UInt8]
        let port: UInt16

        var isLoopback: Bool {
            if family == AF_INET { return bytes[0] == 127 }
            if bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
            // An IPv4 address mapped into IPv6 (::ffff:127.x.x.x).
            return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
        }

        var text: String {
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            _ = inet_ntop(family, bytes, &buffer, socklen_t(buffer.count))
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    private static func address(_ descriptor: Int32,
                                _ name: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32) -> End? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let got = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { name(descriptor, $0, &length) }
        }
        guard got == 0 else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafeBytes(of: storage) { raw in
                let address = raw.load(as: sockaddr_in.self)
                return End(family: AF_INET, bytes: withUnsafeBytes(of: address.sin_addr) { Array($0) }, port: UInt16(bigEndian: address.sin_port))
            }
        case AF_INET6:
            return withUnsafeBytes(of: storage) { raw in
                let address = raw.load(as: sockaddr_in6.self)
                return End(family: AF_INET6, bytes: withUnsafeBytes(of: address.sin6_addr) { Array($0) }, port: UInt16(bigEndian: address.sin6_port))
            }
        default:
            return nil
        }
    }

    /// The user owning the socket at `peer` connected to `local`, asked of the kernel's socket
    /// diagnostics (netlink, `SOCK_DIAG_BY_FAMILY`); nil when it cannot say.
    static func owner(peer: End, local: End) -> UInt32? {
        #if os(Linux)
        let diagnostics = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue), 4 /* NETLINK_SOCK_DIAG */)
        guard diagnostics >= 0 else { return nil }
        defer { close(diagnostics) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(diagnostics, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        var request: [UInt8] = []
        func native<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value) { request += $0 } }
        func padded(_ bytes: [UInt8]) -> [UInt8] { bytes + [UInt8](repeating: 0, count: 16 - bytes.count) }
        native(UInt32(16 + 56))                   // nlmsghdr: length
        native(UInt16(20))                        // SOCK_DIAG_BY_FAMILY
        native(UInt16(1))                         // NLM_F_REQUEST
        native(UInt32(1))                         // sequence
        native(UInt32(0))                         // port id: the kernel
        request += [UInt8(peer.family), UInt8(IPPROTO_TCP), 0, 0]
        native(UInt32.max)                        // every state
        native(peer.port.bigEndian)               // the peer's socket: its own port is the source
        native(local.port.bigEndian)
        request += padded(peer.bytes) + padded(local.bytes)
        native(UInt32(0))                         // any interface
        native(UInt32.max)                        // no cookie
        native(UInt32.max)
        guard request.withUnsafeBytes({ send(diagnostics, $0.baseAddress, $0.count, 0) }) == request.count else { return nil }

        var answer = [UInt8](repeating: 0, count: 8192)
        let count = answer.withUnsafeMutableBytes { recv(diagnostics, $0.baseAddress, $0.count, 0) }
        // nlmsghdr (16) then inet_diag_msg: 4 bytes, the socket's id (48), expires, rqueue,
        // wqueue, then the owner's uid.
        guard count >= 16 + 68 else { return nil }
        let type = answer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4, as: UInt16.self) }
        guard type == 20 else { return nil }
        return answer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 16 + 64, as: UInt32.self) }
        #else
        return nil
        #endif
    }
}
