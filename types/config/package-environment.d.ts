/** The environment a package's code runs with, from the hub's. */
export declare function packageEnvironment(env?: NodeJS.ProcessEnv): Record<string, string>;
