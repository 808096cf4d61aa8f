import test from 'ava';
import { type Broker, canRunBroker, startBroker } from './mosquitto.ts';

/** `test.serial` where Mosquitto is installed, `test.serial.skip` elsewhere (with `whyNoBroker` in the title). */
export const withBroker = canRunBroker ? test.serial : test.serial.skip;

/**
 * One broker for the spec file, started before its tests and stopped after them; the
 * tests use it as a `Broker` (where Mosquitto is not installed, they are skipped).
 */
export function brokerOfFile(): Broker {
  let started: Broker | undefined;
  test.before(async () => {
    if (canRunBroker) started = await startBroker();
  });
  test.after.always(async () => {
    await started?.stop();
  });
  const running = () => {
    if (!started) throw new Error('no broker: Mosquitto is not installed');
    return started;
  };
  return {
    get port() {
      return running().port;
    },
    get url() {
      return running().url;
    },
    kill: (signal) => running().kill(signal),
    restart: () => running().restart(),
    pause: () => running().pause(),
    resume: () => running().resume(),
    stop: () => running().stop(),
  };
}
