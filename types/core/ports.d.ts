/**
 * Why a port could not be had, said the same way by every listener (the rest-api, a TCP or
 * UDP device port): in the words an engineer acts on, not the system's error code.
 */
export declare function whyNotBound(error: NodeJS.ErrnoException, bindIp: string): string;
