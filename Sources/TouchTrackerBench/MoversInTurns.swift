/// One app the bench moves a finger in, beside others (`MoversInTurns`): the Wayland rows' apps under weston and
/// under KWin.
protocol TurnTakingMover {
    associatedtype Key: Hashable
    /// Which app this is (its backend, its scale).
    var key: Key { get }
    var run: WaylandLatency.Run { get }
    mutating func move(_ move: Int, measured: Bool) async throws
    mutating func lift() async throws
    func stop()
}

/// Apps moved in turns, each round starting with the other app, so a slow moment of the machine falls on all alike.
/// One that cannot start or fails on the way leaves the others to go on alone.
enum MoversInTurns {
    /// Starts a mover for each of `keys`, moves them `warmUp + moves` times in turns (the first `warmUp` not
    /// measured), lifts and stops them, and returns each key's run or why it has none.
    static func measure<Mover: TurnTakingMover>(
        _ keys: [Mover.Key], warmUp: Int, moves: Int, start: (Mover.Key) async throws -> Mover
    ) async -> [Mover.Key: Result<WaylandLatency.Run, Error>] {
        var movers: [Mover] = []
        var failures: [Mover.Key: Error] = [:]
        for key in keys {
            do {
                movers.append(try await start(key))
            } catch {
                failures[key] = error
            }
        }
        for move in 1...(warmUp + moves) {
            let order = move % 2 == 0 ? Array(movers.indices) : movers.indices.reversed()
            for index in order where failures[movers[index].key] == nil {
                do {
                    try await movers[index].move(move, measured: move > warmUp)
                } catch {
                    failures[movers[index].key] = error
                }
            }
        }
        for index in movers.indices {
            if failures[movers[index].key] == nil {
                do {
                    try await movers[index].lift()
                } catch {
                    failures[movers[index].key] = error
                }
            }
            movers[index].stop()
        }
        var results: [Mover.Key: Result<WaylandLatency.Run, Error>] = [:]
        for key in keys {
            if let failure = failures[key] {
                results[key] = .failure(failure)
            } else if let mover = movers.first(where: { $0.key == key }) {
                results[key] = .success(mover.run)
            } else {
                results[key] = .failure(EndToEndLatency.Failure(description: "no run for \(key)"))
            }
        }
        return results
    }
}
