// The console's own shapes, as JSDoc types for its modules: what it keeps and hands between
// views. What the hub answers is not here: those shapes are the hub's, in
// lib/core/api-shapes.ts, and the modules import them from there (types only).
/** @import { RedundancyDetails, Value } from '../lib/core/api-shapes.ts' */

/**
 * What the console knows of a value: as `GET /parameters` listed it, or as the WebSocket
 * last sent it (`live`).
 * @typedef {{ v: Value | undefined, by: string | undefined, at: string | undefined, live?: never }} ListedValue
 * @typedef {{ v: string, by: string | undefined, at: string, live: true }} LiveValue
 */
/** @typedef {{ text: string, error: boolean }} Notice */
/** The redundancy group of the hub the console shows: its id, and its place in the group. @typedef {{ hub: string, redundancy: RedundancyDetails }} Membership */
/**
 * How the console stands with its hub: `signed out` when the hub answered 401 (the browser's
 * session ended: a new sign-in key, or a token taken out of the flow file).
 * @typedef {'connecting' | 'live' | 'disconnected' | 'signed out'} Link
 */
/** What a signed-out console may offer: a token field, a reload for the browser's Basic prompt. @typedef {{ token: boolean, basic: boolean }} SignIn */
/** A range a rule's `scale` step declares for a number: the console shows a fader. @typedef {[number, number]} Range */
/** A write from a view; `quiet`: no notice that it was sent (a key let go: the press's refusal stays shown). @typedef {(address: string, v: Value | null, quiet?: boolean) => void} Write */

// A module, so that the types above are its exports (a file without import or export is a script).
export {};
