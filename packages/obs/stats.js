// @ts-check
/**
 * OBS's health, and the time of its outputs, polled while connected every `STATS_EVERY_MS` on
 * the hub's clock: frame rate, frames missed, CPU, memory, disk space left, the stream's
 * congestion and the outputs' timecodes. Each poll also runs the other parts' (`polls`):
 * what OBS does not tell by events.
 */
import { every } from 'patchbay-hub/connection';

/** Milliseconds between two polls. */
export const STATS_EVERY_MS = 2000;

/** @param {number} value @param {number} places */
const round = (value, places) => Math.round(value * 10 ** places) / 10 ** places;

export class Stats {
  #obs;
  #scheduler;
  #polls;
  #log;
  #parameters;
  /** @type {ReturnType<typeof every> | undefined} */
  #running;
  #busy = false;

  /**
   * @param {import('obs-websocket-js').OBSWebSocket} obs
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters
   * @param {import('patchbay-hub/connection').Scheduler} scheduler
   * @param {(() => Promise<unknown>)[]} polls
   * @param {import('patchbay-hub/connection').Logger} log
   */
  constructor(obs, parameters, scheduler, polls, log) {
    this.#obs = obs;
    this.#scheduler = scheduler;
    this.#polls = polls;
    this.#log = log;
    const stat = (
      /** @type {string} */ id,
      /** @type {'I' | 'F' | 'S'} */ type,
      /** @type {import('patchbay-hub/connection').ParameterMeta} */ meta,
    ) => parameters.readOnly(id, { type, meta });
    this.#parameters = {
      fps: stat('stats/fps', 'F', { label: 'Frame rate', unit: 'fps' }),
      frameTime: stat('stats/frameTime', 'F', { label: 'Average frame render time', unit: 'ms' }),
      renderMissed: stat('stats/renderMissedFrames', 'I', { label: 'Frames missed by the renderer', unit: 'frames' }),
      outputSkipped: stat('stats/outputSkippedFrames', 'I', { label: 'Frames skipped by the encoder', unit: 'frames' }),
      cpu: stat('stats/cpu', 'F', { label: 'CPU used by OBS', unit: '%' }),
      memory: stat('stats/memory', 'F', { label: 'Memory used by OBS', unit: 'MB' }),
      disk: stat('stats/diskSpace', 'F', { label: 'Disk space left (recordings)', unit: 'MB' }),
      congestion: stat('streaming/congestion', 'F', {
        label: 'Stream congestion',
        description: '0 clear to 1 congested',
        minimum: 0,
        maximum: 1,
      }),
      streamTime: stat('streaming/timecode', 'S', { label: 'Stream time', description: 'hh:mm:ss.mmm since the stream started' }),
      recordTime: stat('recording/timecode', 'S', { label: 'Recording time', description: 'hh:mm:ss.mmm of the recording' }),
    };
  }

  /** Polls from now until `stop`; a poll still under way when the next is due lets it pass. */
  start() {
    this.stop();
    this.#running = every(this.#scheduler, STATS_EVERY_MS, () => {
      if (this.#busy) return;
      this.#busy = true;
      void this.poll()
        .catch((error) => this.#log.debug(`polling OBS failed: ${error?.message ?? error}`))
        .finally(() => {
          this.#busy = false;
        });
    });
    return this.poll();
  }

  stop() {
    this.#running?.unsubscribe();
    this.#running = undefined;
  }

  async poll() {
    const obs = this.#obs;
    const [stats, stream, record] = await Promise.all([obs.call('GetStats'), obs.call('GetStreamStatus'), obs.call('GetRecordStatus')]);
    const p = this.#parameters;
    p.fps.report(round(stats.activeFps, 2));
    p.frameTime.report(round(stats.averageFrameRenderTime, 2));
    p.renderMissed.report(stats.renderSkippedFrames);
    p.outputSkipped.report(stats.outputSkippedFrames);
    p.cpu.report(round(stats.cpuUsage, 1));
    p.memory.report(round(stats.memoryUsage, 0));
    p.disk.report(round(stats.availableDiskSpace, 0));
    p.congestion.report(round(stream.outputCongestion ?? 0, 3));
    p.streamTime.report(stream.outputTimecode);
    p.recordTime.report(record.outputTimecode);
    await Promise.all(this.#polls.map((poll) => poll()));
  }
}
