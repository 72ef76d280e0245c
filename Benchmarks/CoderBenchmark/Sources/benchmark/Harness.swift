import Dispatch

/// Something to time: one encode or decode of one record.
struct Contender {
    var name: String
    var run: () throws -> Void
}

/// Keeps results alive, so that the optimizer cannot drop the work that made them.
nonisolated(unsafe) var sink = 0

@inline(never)
func consume<T>(_ value: T) {
    sink &+= MemoryLayout.size(ofValue: value)
}

/// Times contenders side by side: in each round every contender runs a batch, so that a slow
/// moment of the machine falls on all of them alike, and the median of the rounds is kept.
struct Harness {
    var rounds: Int
    /// How long one batch of one contender should take, in nanoseconds.
    var batchNanoseconds: UInt64

    /// Median nanoseconds per run of each contender, in order.
    func measure(_ contenders: [Contender]) throws -> [Double] {
        let batchSizes = try contenders.map(calibrate)
        var samples = Array(repeating: [Double](), count: contenders.count)
        for _ in 0..<rounds {
            for (index, contender) in contenders.enumerated() {
                let count = batchSizes[index]
                let start = DispatchTime.now().uptimeNanoseconds
                for _ in 0..<count { try contender.run() }
                let elapsed = DispatchTime.now().uptimeNanoseconds - start
                samples[index].append(Double(elapsed) / Double(count))
            }
        }
        return samples.map(median)
    }

    /// The number of runs that fills a batch.
    private func calibrate(_ contender: Contender) throws -> Int {
        var count = 1
        while true {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<count { try contender.run() }
            let elapsed = DispatchTime.now().uptimeNanoseconds - start
            if elapsed >= batchNanoseconds || count >= 1 << 24 {
                return max(1, Int(Double(count) * Double(batchNanoseconds) / Double(max(elapsed, 1))))
            }
            count *= 2
        }
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
