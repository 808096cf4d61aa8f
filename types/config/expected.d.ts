/** Says in words what a JSON Schema accepts: the "expected …" half of a flow-file error. */
export declare function describeExpected(schema: Record<string, unknown>): string;
