import Glibc

/// The name the kernel shows for a thread (`top -H`, `ps -L`, gdb, `/proc/PID/task/TID/comm`), so a busy or stuck
/// worker can be told apart from the event loop. Foundation's `Thread.name` stays inside the process on Linux, and
/// `pthread_setname_np` sits behind _GNU_SOURCE where Swift's Glibc module leaves it out; the calling thread's
/// `comm` file is the same setting by another door.
public enum ThreadName {
    /// The kernel keeps at most 15 bytes of a thread's name (TASK_COMM_LEN less its terminating zero).
    public static let maximumBytes = 15

    /// Names the calling thread `name`, cut to `maximumBytes` bytes on a character boundary. A failure leaves the
    /// name as it was: the name is for people looking in, nothing depends on it.
    public static func setForThisThread(_ name: String) {
        var bytes: [UInt8] = []
        for character in name {
            let utf8 = Array(String(character).utf8)
            guard bytes.count + utf8.count <= maximumBytes else { break }
            bytes += utf8
        }
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
