/**
 * The bounds every client of one rest-api is held to (R-H2, R-H12): bodies, WebSocket
 * messages, writes waiting, lag. The server applies them; the WebSocket route reads them.
 */

export interface Limits {
  /** Largest accepted request body (R-H2: 413 above it). */
  readonly maxBody: number;
  /** Largest accepted WebSocket message; a larger one closes the socket with 1009 (R-H12). */
  readonly maxMessage: number;
  /**
   * What uWS itself reads of one message before it drops the connection (1006, no close
   * frame): above `maxMessage`, so that a message somewhat too large is read and answered
   * with 1009, and bounded, so that no socket can make the hub buffer more.
   */
  readonly maxMessageRead: number;
  /** Error answers sent one by one per client message; the rest are counted in one more. */
  readonly maxErrorAnswers: number;
  /** Milliseconds of applying one client's WebSocket messages per event-loop turn; the rest waits (fair share). */
  readonly writeShareMs: number;
  /** Message bytes a client may have waiting; beyond them it is closed with 1008. */
  readonly maxWaitingWrites: number;
  /** Send-buffer bytes beyond a client's snapshot at which it stops getting changes. */
  readonly lagLimit: number;
  /** How often buffers are checked while changes flow. */
  readonly scanIntervalMs: number;
  /** uWS's own per-socket cap; past it uWS drops messages (the lag check repairs that). */
  readonly maxBackpressure: number;
}

export const defaultLimits: Limits = {
  maxBody: 64 * 1024,
  maxMessage: 1024 * 1024,
  maxMessageRead: 8 * 1024 * 1024,
  maxErrorAnswers: 32,
  writeShareMs: 2,
  maxWaitingWrites: 4 * 1024 * 1024,
  lagLimit: 512 * 1024,
  scanIntervalMs: 50,
  maxBackpressure: 32 * 1024 * 1024,
};
