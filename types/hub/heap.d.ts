export declare function promoteStartGarbage(): void;
