/**
 * Checks, in a child process, that the X display can be opened for global hotkeys and
 * synthetic keys. The native key libraries abort or crash the whole process when it
 * cannot, so they are only ever loaded in this process after a probe has passed.
 * Rejects with a PB_NO_DISPLAY HubError giving the reason (no DISPLAY, display
 * unreachable, no permission).
 */
export declare function probeDisplay(): Promise<void>;
