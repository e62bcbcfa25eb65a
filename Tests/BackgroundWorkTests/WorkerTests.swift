import BackgroundWork
import Dispatch
import Synchronization
import Testing

/// The one shape of background work: jobs in order on a named thread, the loop woken after each, and a stop.
@Suite struct WorkerTests {
    @Test("jobs run one at a time in the order they were handed over, and the loop is woken after each")
    func jobsRunInOrderAndWakeTheLoop() {
        let ran = Mutex<[Int]>([])
        let wakeUps = Mutex(0)
        let worker = Worker(name: "test worker", wakeUp: { wakeUps.withLock { $0 += 1 } })
        for index in 0..<50 { worker.submit { ran.withLock { $0.append(index) } } }
        worker.finishAndWait()
        #expect(ran.withLock { $0 } == Array(0..<50))
        #expect(wakeUps.withLock { $0 } == 50)
    }

    @Test("stop returns once the job in hand has finished, drops the jobs not started, and later jobs are dropped")
    func stopWaitsForTheJobInHand() {
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let finished = Mutex(false)
        let later = Mutex(false)
        let worker = Worker(name: "test worker")
        worker.submit {
            started.signal()
            proceed.wait()
            finished.withLock { $0 = true }
        }
        worker.submit { later.withLock { $0 = true } }
        started.wait()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { proceed.signal() }
        worker.stop()
        #expect(finished.withLock { $0 })
        worker.submit { later.withLock { $0 = true } }
        #expect(!later.withLock { $0 })
    }

    @Test("a worker let go of still finishes the jobs handed to it")
    func droppedWorkerFinishesItsJobs() {
        let done = DispatchSemaphore(value: 0)
        do {
            let worker = Worker(name: "test worker")
            worker.submit { done.signal() }
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
    }
}
