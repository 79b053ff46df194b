import Foundation

/// The run state read and its files' results decoded on a thread of their own while discovery walks the folders.
///
/// Measured on 447k lines with one file edited (README, "The cache's speed"): discovery (a fifth of the run) ran on
/// one core while the other waited, and only then was the state read and every file decoded. The state a run will
/// use is named by its identity, which depends on the configurations discovery meets; so each stored state leaves a
/// pointer under the run's paths alone (`latestStatePath`), and the next run over those paths starts from it at once.
/// Nothing it makes is used unless it is what the run would have made itself:
/// - the state is used only when its identity is the run's (`state(for:)`), else the run loads its own as before;
/// - a file's decoded result is used only where the run would decode that file's record from this state (its
///   stamp, trust and fingerprint checked by `ResultCache.result` as for any record); decoding is deterministic, so
///   the result is the one the run would get.
/// A file is decoded once: the thread and the run's workers each claim a file before decoding it, and a worker
/// that finds a file claimed but not yet decoded decodes it itself (at most one file per worker is decoded twice).
final class StatePreload: @unchecked Sendable {
    private enum Slot {
        case waiting
        case claimed
        case decoded(Linter.FileResult)
        case taken
    }

    private let lock = NSLock()
    private let loaded = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var state: ResultCache.RunState?
    private var slots: [Slot] = []
    private var positions: [String: Int] = [:]
    private var cancelled = false

    /// Starts reading the state the pointer at `pointerPath` names (nothing when there is none).
    init(cache: ResultCache, pointerPath: String) {
        let thread = Thread { [self] in
            defer { finished.signal() }
            let state = cache.loadLatestState(pointerPath: pointerPath)
            lock.withLock {
                self.state = state
                if let state {
                    slots = Array(repeating: .waiting, count: state.order.count)
                    positions = Dictionary(state.order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
                }
            }
            loaded.signal()
            guard let state else { return }
            for (position, path) in state.order.enumerated() {
                let claimed = lock.withLock {
                    guard !cancelled, case .waiting = slots[position] else { return false }
                    slots[position] = .claimed
                    return true
                }
                if lock.withLock({ cancelled }) { return }
                guard claimed, let file = state.files[path] else { continue }
                let result = ResultCache.decodedQuietly(file.payload)
                // A `cancel()` while this file was decoded has let go of every slot: the result must not come back.
                lock.withLock {
                    guard !cancelled, case .claimed = slots[position] else { return }
                    slots[position] = result.map { .decoded($0) } ?? .taken
                }
            }
        }
        thread.start()
    }

    /// The preloaded state when its identity is `identity` (waiting for it to be read), else nil (and nothing more is decoded).
    func state(for identity: String) -> ResultCache.RunState? {
        loaded.wait()
        loaded.signal()
        let matching = lock.withLock { state?.identity == identity ? state : nil }
        if matching == nil { cancel() }
        return matching
    }

    /// Waits until the thread has gone through every file (tests).
    func waitUntilDone() {
        finished.wait()
        finished.signal()
    }

    /// Stops decoding (the run does not use this state) and lets go of what was decoded.
    func cancel() {
        lock.withLock {
            cancelled = true
            slots = slots.map { _ in .taken }
        }
    }

    /// The decoded result of `path`'s record, when the thread has made it; else nil, and the file is the caller's to decode.
    func take(_ path: String) -> Linter.FileResult? {
        lock.withLock {
            guard let position = positions[path] else { return nil }
            switch slots[position] {
            case .decoded(let result):
                slots[position] = .taken
                return result
            case .waiting:
                slots[position] = .claimed
                return nil
            case .claimed, .taken:
                return nil
            }
        }
    }
}

extension ResultCache {
    /// Where the name of the last state stored for a run over these paths is kept (`StatePreload`): named by the
    /// run's paths and reported files alone, which a run knows before discovery.
    func latestStatePath(run: String) -> String {
        let hash = ContentHash(Array((tool + "\n" + run).utf8))
        return folder + "/" + Self.runsFolderName + "/" + String(hash.first, radix: 16) + String(hash.second, radix: 16) + ".latest"
    }

    /// Starts reading the last state stored for `run` and decoding its files, or nil without a usable cache.
    func preloadState(run: String) -> StatePreload? {
        guard !lock.withLock({ disabled }) else { return nil }
        return StatePreload(cache: self, pointerPath: latestStatePath(run: run))
    }

    /// The state the pointer names, whole and of this build, whatever its identity; nil when there is none or it is
    /// damaged (then the run's own `loadState` finds it so and says so).
    func loadLatestState(pointerPath: String) -> RunState? {
        guard let pointer = FileManager.default.contents(atPath: pointerPath),
              let name = String(data: pointer, encoding: .utf8), !name.isEmpty, name.allSatisfy(\.isHexDigit),
              let data = FileManager.default.contents(atPath: folder + "/" + Self.runsFolderName + "/" + name + ".state") else { return nil }
        return Self.decodeState(data, tool: tool, identity: nil)
    }

    /// Records that the state of `key` is the last one stored for `run`.
    func noteLatestState(_ key: RunKey, run: String) {
        _ = writeAtomically(Data(key.entryName.utf8), to: latestStatePath(run: run))
    }

    /// A payload decoded into a file's result, or nil when it cannot be (not counted: the run decodes it again and counts it).
    static func decodedQuietly(_ payload: Data) -> Linter.FileResult? {
        guard let stored = try? Codec.current.decode(StoredResult.self, from: payload) else { return nil }
        var result = Linter.FileResult()
        result.facts = stored.facts
        result.pending = stored.pending
        result.suppression = stored.suppression
        result.warning = stored.warning
        return result
    }
}
