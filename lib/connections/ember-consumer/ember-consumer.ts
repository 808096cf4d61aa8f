/**
 * `ember-consumer`: an Ember+ consumer (R-E2, R-G1–R-G5). It connects to a provider over TCP,
 * reads its tree (or the subtrees in `paths`) at every connect and shows each Ember+ parameter
 * as a parameter of its own, typed and with the provider's access; values follow the provider.
 * A hub write is a setValue, answered once the provider answers with the value written. Each
 * matrix target is a parameter too, whose write connects (see `MatrixReading`). It tells the
 * provider nothing at start (R-G3): nothing is sent but the writes hub clients make.
 *
 * Parameters:
 *   <identifier path>   B I F S   as the provider says   one per Ember+ parameter: boolean B,
 *                                                      integer and enum I (enum names in the
 *                                                      connection's details), real F, string S;
 *                                                      identifiers joined by `/`
 *   <matrix>/targets/<t>/source    I   read-write      oneToN, oneToOne: the source, -1 none
 *   <matrix>/targets/<t>/sources   S   read-write      nToN: the sources, "1,4"
 *   <matrix>/targets/<t>/label     S   read-only       labels, when the matrix has them
 *   <matrix>/sources/<s>/label     S   read-only
 */
import { Type } from '@sinclair/typebox';
import {
  checked,
  connectTimeoutSetting,
  DEFAULT_MAX_PARAMETERS,
  DEFAULT_TIMEOUT_MS,
  defineConnectionType,
  DeviceLink,
  DeviceParameters,
  droppedMetric,
  type Issue,
  Overruns,
  TcpConnection,
  withDefault,
  hostSetting,
  portSetting,
} from '../../sdk/index.ts';
import { EmberReceiver } from '../../protocols/ember-decoding.ts';
import { DEFAULT_MAX_MESSAGE_BYTES, KEEPALIVE_RESPONSE } from '../../protocols/s101.ts';
import { TreeReading } from './tree-reading.ts';

const settings = Type.Object({
  host: hostSetting("The provider's host name or IP address."),
  port: withDefault(portSetting("The provider's TCP port."), 9000),
  connectTimeout: connectTimeoutSetting,
  paths: withDefault(
    Type.Array(Type.String({ minLength: 1, description: 'An identifier path, segments joined by `/`, as the parameter ids show it.' }), {
      description: 'Subtrees to read (`router/levels`); empty reads the whole tree.',
    }),
    [],
  ),
  timeout: withDefault(
    Type.Integer({ minimum: 1, description: 'Milliseconds a write waits for the provider to answer with the value written (R-G1).' }),
    DEFAULT_TIMEOUT_MS,
  ),
  maxParameters: withDefault(
    Type.Integer({ minimum: 1, description: 'Parameters the provider can make appear; past it the rest are dropped (R-G4).' }),
    DEFAULT_MAX_PARAMETERS,
  ),
  maxMessageBytes: withDefault(
    Type.Integer({
      minimum: 1024,
      description: 'Bytes of one message from the provider, all its frames together; a larger one is dropped.',
    }),
    DEFAULT_MAX_MESSAGE_BYTES,
  ),
});

const OVERRUN_KINDS = ['parameters', 'messages'] as const;
/** A provider's keep-alive asks get one answer in this time at most. */
const KEEPALIVE_ANSWER_MS = 100;

export const emberConsumerType = defineConnectionType({
  type: 'ember-consumer',
  summary: 'Reads an Ember+ provider’s tree and shows its parameters, following their values and writing them.',
  settings,
  parse(written) {
    const issues: Issue[] = [];
    const paths = written.paths.map((path, index) => {
      const segments = path.split('/');
      if (segments.some((segment) => segment === ''))
        issues.push({ path: ['paths', index], message: 'segments are joined by single "/", with none empty' });
      return segments;
    });
    return checked(issues, { ...written, paths });
  },
  discovers: () => ({ parameters: true }),
  metrics: [
    {
      name: 'patchbay_ember_consumer_parameters',
      help: 'Parameters an ember-consumer shows from its provider.',
      kind: 'gauge',
      samples: (details) => [{ value: Number(details['parameters'] ?? 0) }],
    },
    droppedMetric('patchbay_ember_consumer_dropped_total', 'What an ember-consumer dropped past its bounds, by kind (R-G4).'),
  ],
  create(context, { host, port, connectTimeout, paths, timeout, maxParameters, maxMessageBytes }) {
    const overruns = new Overruns(OVERRUN_KINDS, context.scheduler, context.setStatus);
    const warned = new Set<string>();
    const enums = new Map<string, Record<string, string>>();
    let connection: TcpConnection | undefined;
    let reading: TreeReading | undefined;
    const link = new DeviceLink(
      {
        open(attempt) {
          let opened: TcpConnection | undefined;
          const here = new TreeReading((message) => opened?.write(message), {
            parameters,
            log: context.log,
            paths,
            warned,
            enums,
            origin: `ember ${host}:${port}`,
          });
          reading = here;
          let lastKeepalive = Number.NEGATIVE_INFINITY;
          const receiver = new EmberReceiver(
            maxMessageBytes,
            { pause: () => opened?.pause(), resume: () => opened?.resume() },
            {
              met: (met) => here.receive(met),
              keepalive() {
                // A provider asks every few seconds: a flood of asks gets ten answers a second.
                const now = context.scheduler.now();
                if (now - lastKeepalive < KEEPALIVE_ANSWER_MS) return;
                lastKeepalive = now;
                opened?.write(KEEPALIVE_RESPONSE);
              },
              dropped: (_kind, reason) => overruns.dropped('messages', `${reason} from the provider`),
            },
          );
          opened = TcpConnection.open(
            attempt,
            { host, port, connectTimeout },
            {
              data: (chunk) => receiver.push(chunk),
              connected: () => here.begin(),
              closed: () => {
                receiver.close();
                here.end();
              },
            },
          );
          connection = opened;
        },
        close() {
          reading?.end();
          connection?.close();
        },
      },
      { scheduler: context.scheduler, status: overruns.status, timeoutMs: timeout, fence: context.fence },
    );
    const parameters = new DeviceParameters(context, link, overruns, maxParameters);
    return {
      start: () => link.start(),
      details: () => ({
        host,
        port,
        parameters: parameters.size,
        dropped: { ...overruns.counts },
        ...(enums.size > 0 ? { enums: Object.fromEntries([...enums].filter(([id]) => parameters.get(id) !== undefined)) } : {}),
      }),
      async stop() {
        overruns.stop();
        await link.stop();
      },
    };
  },
});
