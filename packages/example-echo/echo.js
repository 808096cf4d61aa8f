/**
 * `echo`: reports each write of `in` on `out`, `delayMs` later. An example of a connection
 * type in a package of its own, built on `patchbay-hub/connection` alone.
 *
 * Parameters:
 *   in    S   write-only   each write is reported on `out` after `delayMs`
 *   out   S   read-only    the last write of `in` that came through
 */
import { after, asWritten, defineConnectionType, Type, withDefault } from 'patchbay-hub/connection';

export default defineConnectionType({
  type: 'echo',
  summary: 'Reports each write of in on out, a little later.',
  settings: Type.Object({
    delayMs: withDefault(Type.Integer({ minimum: 0, maximum: 60_000, description: 'How long a write takes to come out, in ms.' }), 100),
  }),
  parse: asWritten,
  create(context, { delayMs }) {
    const waits = new Set();
    return {
      start() {
        const out = context.define('out', { type: 'S', access: 'read-only', initial: '' });
        context.define('in', {
          type: 'S',
          access: 'write-only',
          onWrite: (value) => {
            const wait = after(context.scheduler, delayMs, () => {
              waits.delete(wait);
              out.report(value);
            });
            waits.add(wait);
          },
        });
      },
      stop() {
        for (const wait of waits) wait.unsubscribe();
        waits.clear();
      },
      details: () => ({ waiting: waits.size, pid: process.pid }),
    };
  },
});
