/** One peer's side of a `BoundedWorker`: its jobs wait with it. */
export interface WorkerTurns<Job, Result> {
    /** Its next job, or undefined when none waits (or it may not have one now). */
    take(): Job | undefined;
    /** More jobs wait after the one taken. */
    readonly hasWaiting: boolean;
    /** The result of the job it took last. */
    done(result: Result): void;
}
export interface BoundedWorkerOptions<Result> {
    /** The thread's module: it answers each message posted to it with one message, the result. */
    readonly entry: URL;
    /** The thread's heap, MiB. */
    readonly heapMb: number;
    /** What a job the thread could not finish (it died) yields, by why. */
    failed(why: string): Result;
}
export declare class BoundedWorker<Job, Result> {
    private readonly options;
    private worker;
    /** The peer whose job the thread does now. */
    private busy;
    /** Peers with jobs waiting, in turn (a Set keeps the order things were added in). */
    private readonly turns;
    constructor(options: BoundedWorkerOptions<Result>);
    /** `peer` has a job waiting (again): it takes its turn. */
    wants(peer: WorkerTurns<Job, Result>): void;
    /** `peer` wants no more turns (a job it has running still ends with `done`). */
    forget(peer: WorkerTurns<Job, Result>): void;
    /** Starts the thread ahead of the first job: loading it takes a good part of a second. */
    warm(): void;
    private next;
    private done;
    private started;
}
/** The module next to `url` named `name`, as it runs: `.ts` in a checkout, `.js` once built. */
export declare function siblingModule(url: string, name: string): URL;
