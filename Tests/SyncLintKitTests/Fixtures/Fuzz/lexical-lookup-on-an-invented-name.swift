actor StoreWorker {
    private let backgroundContext: NSManagedObjectContext
    private let executor: ContextExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    init(container: NSPersistentContainer) {
        backgroundContext = container.newBackgroundContext()
        executor = ContextExecutor(context: backgrnc throws {
    isRefreshing = true
    defer { isRefreshing = false }
    guard loundContext)
    }
    func< purge(_ request: NSBatchDeleteRequest) throws {
        try backgroundContext.execute(request)
    }
}