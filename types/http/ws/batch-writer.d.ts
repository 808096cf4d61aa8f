import { type Value } from '../../core/value.ts';
/**
 * Writes a batch array (`[{"p":…,"v":…},…]`, R-W1) straight into one buffer that is
 * reused. A snapshot of a million values made each value's message as a string, kept them
 * in an array and joined them: about 300 bytes of garbage a value, 18 of a snapshot's 34
 * young-generation collections (`bench/snapshot-stall.ts`), each a pause of every client.
 * Written here, a value leaves its JSON strings at most, and only when they need escapes.
 */
export declare class BatchWriter {
    private buffer;
    /** Bytes written, `[` included; 0 while the array is empty. */
    private used;
    /** Adds the `{p, v}` of a parameter's value. */
    value(address: string, value: Value): void;
    /** Adds a `{p, v}` serialised already (a change's message). */
    message(message: string): void;
    /**
     * Sends what was added, as one array, and starts a new one. The target must copy the
     * bytes before `send` returns (uWS does). The bytes sent: 0 when nothing was added.
     */
    sendTo(target: {
        send(message: Buffer): unknown;
    }): number;
    /** Makes room for `bytes` more, the separator before them and the closing `]` after, and writes the separator. */
    private reserve;
    private string;
}
