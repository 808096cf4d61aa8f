import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { config as rxjsConfig } from 'rxjs';
import { type Flow, flowFileJsonSchema, loadFlowFile } from './config/flow-file.ts';
import { FlowWatcher } from './config/flow-watcher.ts';
import { reasonOf } from './core/errors.ts';
import { createLogger, type LogFormat, logFormats, type Logger, type LogLevel, logLevels } from './core/log.ts';
import { keepAlive, realTime } from './core/scheduler.ts';
import { Hub } from './hub.ts';

/** Exit statuses of R-F2. */
export const Exit = { Ok: 0, RuntimeFailure: 1, Usage: 2 } as const;

export const defaultFlowFile = fileURLToPath(new URL('../flows/demo.json5', import.meta.url));

const usage = `Usage:
  patchbay run [flow file] [--watch] [--log-level LEVEL] [--log-format pretty|json]
      Runs the hub (default flow file: flows/demo.json5). Stops cleanly on SIGINT/SIGTERM.
      --watch reloads the flow file and its code flows when they change.
  patchbay validate <flow file>
      Checks a flow file and prints every mistake with its JSON path; exits 0 or 2.
  patchbay schema
      Prints the JSON Schema of flow files, for editors.

Options:
  --log-level   ${[...logLevels, 'silent'].join(', ')} (default info)
  --log-format  ${logFormats.join(', ')} (default pretty)
  --watch       with run: reload on changes; a flow file with mistakes is refused and the running one kept
  -h, --help    this text
  -v, --version the version`;

/** Runs one command line and resolves with the exit status. */
export async function main(argv: readonly string[], out = process.stdout, err = process.stderr): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        'log-level': { type: 'string', default: 'info' },
        'log-format': { type: 'string', default: 'pretty' },
        watch: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (error) {
    err.write(`patchbay: ${reasonOf(error)}\n\n${usage}\n`);
    return Exit.Usage;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help) {
    out.write(`${usage}\n`);
    return Exit.Ok;
  }
  if (values.version) {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    out.write(`${pkg.version}\n`);
    return Exit.Ok;
  }
  const level = values['log-level'] as LogLevel;
  const format = values['log-format'] as LogFormat;
  const badUsage = (message: string) => {
    err.write(`patchbay: ${message}\n\n${usage}\n`);
    return Exit.Usage;
  };
  if (![...logLevels, 'silent'].includes(level)) return badUsage(`unknown log level "${level}"`);
  if (!logFormats.includes(format)) return badUsage(`unknown log format "${format}"`);

  switch (command) {
    case 'run':
      if (rest.length > 1) return badUsage('run takes at most one flow file');
      return run(rest[0] ?? defaultFlowFile, { level, format, watch: values.watch === true }, err);
    case 'validate': {
      if (rest.length !== 1) return badUsage('validate takes exactly one flow file');
      const result = await loadFlowFile(rest[0] as string);
      if (!result.ok) {
        err.write(`${result.error.message}\n`);
        return Exit.Usage;
      }
      out.write(`${result.flow.path}: valid (${result.flow.connections.length} connections)\n`);
      return Exit.Ok;
    }
    case 'schema':
      out.write(flowFileJsonSchema());
      return Exit.Ok;
    case undefined:
      return badUsage('missing command');
    default:
      return badUsage(`unknown command "${command}"`);
  }
}

interface RunOptions {
  readonly level: LogLevel;
  readonly format: LogFormat;
  readonly watch: boolean;
}

async function run(file: string, { level, format, watch }: RunOptions, err: NodeJS.WritableStream): Promise<number> {
  const loaded = await loadFlowFile(file);
  if (!loaded.ok) {
    err.write(`${loaded.error.message}\n`);
    return Exit.Usage;
  }
  // Logs are a side channel: a reader that goes away (a closed pipe) must not turn every
  // later log line into an error that is itself logged.
  err.on('error', () => {});
  const log = createLogger({ level, format, destination: err });
  // A listener that throws is reported and the graph carries on (the default would
  // rethrow it asynchronously and end the process).
  rxjsConfig.onUnhandledError = (error) => log.error(`unhandled error in a subscriber: ${reasonOf(error)}`);
  log.info(`flow file ${loaded.flow.path}`);
  const hub = new Hub({ flow: loaded.flow, log });
  const release = keepAlive();
  let watcher: FlowWatcher | undefined;

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (why: string, status: number) => {
      if (stopping) {
        log.warn(`${why} while stopping: exiting now`);
        return resolve(Exit.RuntimeFailure);
      }
      stopping = true;
      watcher?.close();
      log.info(`stopping (${why})`);
      hub.stop().then(
        () => resolve(status),
        (error: unknown) => {
          log.error(`stop failed: ${reasonOf(error)}`);
          resolve(Exit.RuntimeFailure);
        },
      );
    };
    process.on('SIGINT', () => stop('SIGINT', Exit.Ok));
    process.on('SIGTERM', () => stop('SIGTERM', Exit.Ok));
    process.on('uncaughtException', (error) => {
      if (stopping) return resolve(Exit.RuntimeFailure);
      log.fatal(`uncaught: ${error.stack ?? reasonOf(error)}`);
      stop('runtime failure', Exit.RuntimeFailure);
    });
    hub.start().then(
      () => {
        if (watch && !stopping) watcher = watchAndReload(hub, loaded.flow, log);
      },
      (error: unknown) => {
        log.fatal(`start failed: ${reasonOf(error)}`);
        stop('runtime failure', Exit.RuntimeFailure);
      },
    );
  }).finally(release);
}

/** `--watch`: reloads on every change of the flow file or a code flow, one reload at a time. */
function watchAndReload(hub: Hub, initial: Flow, log: Logger): FlowWatcher {
  let queue = Promise.resolve();
  const watcher = new FlowWatcher(() => {
    queue = queue.then(async () => {
      const loaded = await loadFlowFile(initial.path);
      if (!loaded.ok) {
        log.error(`reload refused, the running flow is kept: ${loaded.error.message}`);
        return;
      }
      await hub.reload(loaded.flow);
      watcher.watch([loaded.flow.path, ...loaded.flow.flows]);
    });
  }, realTime);
  watcher.watch([initial.path, ...initial.flows]);
  log.info(`watching ${initial.path} and its code flows for changes`);
  return watcher;
}
