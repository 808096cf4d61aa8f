/**
 * The settings the nmos specs give a node of theirs: on loopback, without DNS-SD (a spec's
 * node looks for no registry unless it names one). `baseOf` (http.ts) says where it answers.
 */

/** An `nmos` connection's settings on a free port of 127.0.0.1: spread them and add the rest. */
export const LOOPBACK_NODE = { type: 'nmos', port: 0, bindIp: '127.0.0.1', host: '127.0.0.1', dnsSd: false } as const;
