/**
 * A redundancy group behind exactly the broker ACL the guides ship
 * (flows/examples/mosquitto-site.acl), with a password file as "Securing a site" says: one
 * hub takes the lease, and the other takes over when it is killed.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withBroker } from '../helpers/broker-tests.ts';
import { eventually } from '../helpers/eventually.ts';
import { runHub } from '../helpers/hub-process.ts';
import { startBroker, whyNoBroker } from '../helpers/mosquitto.ts';
import { siteKey } from '../helpers/site-key.ts';

const aclFile = fileURLToPath(new URL('../../flows/examples/mosquitto-site.acl', import.meta.url));
const users = { control: 'control-secret', studio: 'studio-secret', panel: 'panel-secret' };

withBroker(
  `a group of two hubs behind the shipped ACL: one becomes active, and the other takes over when it is killed (R-B1, R-B2)${whyNoBroker}`,
  async (t) => {
    const broker = await startBroker({ acl: { file: aclFile, users } });
    t.teardown(() => broker.stop());
    const dir = await mkdtemp(join(tmpdir(), 'patchbay-acl-group-'));
    const flow = join(dir, 'studio.json5');
    await writeFile(
      flow,
      JSON.stringify({
        connections: {
          api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
          bus: {
            type: 'mqtt',
            url: broker.url,
            username: '${HUB}',
            password: '${MQTT_PASSWORD}',
            hub: { id: '${HUB}', group: 'site', share: [], key: siteKey },
          },
          desk: { type: 'dummy', parameters: ['title,S,morning'] },
        },
      }),
    );
    const hub = (id: 'control' | 'studio') =>
      runHub(t, flow, { env: { HUB: id, MQTT_PASSWORD: users[id] }, args: ['--state', join(dir, `state-${id}`)] });
    const control = await hub('control');
    await eventually(
      async () => (await control.read('bus/_hub/role')) === 'active',
      () => `the first hub to take the lease behind the ACL: ${control.log()}`,
      6000,
    );
    const studio = await hub('studio');
    await eventually(async () => (await studio.read('bus/_hub/active')) === 'control', 'the standby to know the active hub');
    t.is(await studio.read('bus/_hub/role'), 'standby');
    t.is(await studio.write('desk/title', 'evening'), 'OK', 'a write forwarded to the active hub');
    t.is(await control.read('desk/title'), 'evening');

    control.child.kill('SIGKILL');
    const killed = performance.now();
    await eventually(async () => (await studio.read('bus/_hub/role')) === 'active', 'the standby to take over behind the ACL', 5000);
    t.log(`takeover behind the ACL: ${Math.round(performance.now() - killed)} ms`);
    t.is(await studio.read('desk/title'), 'evening');
  },
);
