/** The id of a flow module: its file name, lower-cased, with other characters as `-`. */
export declare function flowIdOf(path: string): string;
