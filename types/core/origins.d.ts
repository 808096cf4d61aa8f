/**
 * Whether parameters keep who changed them (R-O2). Always, except in the benchmark that
 * measures what keeping it costs: it runs the same hub with
 * `PATCHBAY_BENCH_WITHOUT_ORIGINS=1` beside it (bench/README.md, scenario 10).
 */
export declare const keepsOrigins: boolean;
