// Peak hold for the level meter: what a rule cannot say, because it needs memory over
// time. The peak rises at once with the level, holds for two seconds, then follows the
// level down. It lives at peak-hold/peak (the flow's id is its file name).
import { filter, map, scan } from 'rxjs';
import type { CodeFlow } from 'patchbay-hub/flow';

const holdMs = 2000;

const peakHold: CodeFlow = (hub) => {
  const peak = hub.define('peak', { type: 'F', access: 'read-only' });
  return hub.watch('audio/level').pipe(
    filter((level) => level !== undefined),
    map((level) => ({ level: Number(level), at: hub.scheduler.now() })),
    scan((held, now) => (now.level >= held.level || now.at - held.at > holdMs ? now : held)),
    map((held) => peak.report(Math.round(held.level * 10) / 10)),
  );
};

export default peakHold;
