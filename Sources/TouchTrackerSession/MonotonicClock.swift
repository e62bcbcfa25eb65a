import Foundation

/// Reads CLOCK_MONOTONIC in seconds: the time line the event loop advances TouchKit's clock along.
public enum MonotonicClock {
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
