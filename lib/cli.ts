import { homedir } from 'node:os';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { config as rxjsConfig } from 'rxjs';
import { type Flow, flowFileJsonSchema, loadFlowFile, pluginsOf } from './config/flow-file.ts';
import { firstFlow } from './config/first-flow.ts';
import { connectionPage, referencePage } from './config/reference.ts';
import { formatIssue } from './core/issue.ts';
import { connectionTypes } from './config/connection-types.ts';
import { FlowEditor } from './config/flow-editor.ts';
import { FlowWatcher } from './config/flow-watcher.ts';
import { reasonOf } from './core/errors.ts';
import { createLogger, type LogFormat, logFormats, type Logger, type LogLevel, logLevels } from './core/log.ts';
import { keepAlive, realTime } from './core/scheduler.ts';
import { Hub } from './hub/hub.ts';
import { ReloadRefused } from './hub/reload.ts';
import { codeFlowFailed } from './rules/code-flows/running-flow.ts';
import { StateStore } from './state/store.ts';
import { KeptSessionKey } from './state/sign-in-key.ts';
import { companionModuleFolders } from './store/companion-installation.ts';
import { Store } from './store/store.ts';
import { Exit, stateFolderOf } from './commands.ts';
import { stateCommand } from './state-command.ts';
import { witness } from './witness-command.ts';

export { Exit, stateFolderOf } from './commands.ts';

const usage = `Usage:
  patchbay [run] [flow file] [--watch] [--state DIR|none] [--allow-machine-edits] [--log-level LEVEL] [--log-format pretty|json]
      Runs the hub. Without a flow file: studio.json5 in this folder, made when there is
      none (a rest-api on 127.0.0.1, port 17011 or $PORT; the console's address is printed
      once, with the admin token). Stops cleanly on SIGINT/SIGTERM;
      SIGHUP reloads the flow file. --watch reloads it and its code flows when they change.
      Flow files may use environment variables: \${NAME}, \${NAME:-default}.
  patchbay state <flow file> list | reset <connection> | export | import <file> | rotate-sign-in-key [--state DIR]
      Shows the kept values (address<TAB>value), forgets a connection's values (it starts
      from its defaults next time), or moves them as JSON (export prints to standard output).
      rotate-sign-in-key makes a new key for browsers' sessions: every browser signed in by
      token is signed out, also by a running hub. May run beside a running hub.
  patchbay validate <flow file> [--state DIR|none]
      Checks a flow file and prints every mistake with its JSON path; exits 0 or 2.
  patchbay schema [flow file] [--state DIR|none]
      Prints the JSON Schema of flow files, for editors; given a flow file, with the
      connection types of the packages its plugins list.
  patchbay reference <flow file> [--state DIR|none]
      Prints, in Markdown, the reference page of each connection type the packages of its
      plugins bring: what a package's README can hold, generated from its settings schema;
      and of each connection that knows settings of its own (a Companion module connection,
      once it ran with the state folder: its config fields, actions, feedbacks, presets).
  patchbay witness --group NAME --members A,B --listen HOST:PORT [--id ID] [--key-env VAR | --key-file FILE] [--state DIR]
      The third voter of a redundancy group of two hubs: grants the lease to one hub at a
      time, over UDP, signed with the site key (default: the PATCHBAY_SITE_KEY variable).
      Run it on a third machine (the broker's is a good one). Default id: witness.
      The hubs name it in their mqtt connection's hub.voters (docs/guides/standby.md).

Options:
  --log-level   ${[...logLevels, 'silent'].join(', ')} (default info)
  --log-format  ${logFormats.join(', ')} (default pretty)
  --watch       with run: reload on changes; a flow file with mistakes, or a running code flow
                that does not load as edited, is refused and the running one kept
  --state       the state folder (default: .patchbay beside the flow file); none: keep no values
  --allow-machine-edits
                with run: lets admin logins change, in the console or over PUT /flow, what
                names code, files or devices on this machine (code flows, plugins, file names
                outside outputFolder, certificates, serial ports, keystrokes): such a login
                can then run code as the hub's user
  -h, --help    this text
  -v, --version the version`;

function parseCommandLine(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      'log-level': { type: 'string', default: 'info' },
      'log-format': { type: 'string', default: 'pretty' },
      watch: { type: 'boolean', default: false },
      'allow-machine-edits': { type: 'boolean', default: false },
      state: { type: 'string' },
      group: { type: 'string' },
      members: { type: 'string' },
      listen: { type: 'string' },
      id: { type: 'string' },
      'key-env': { type: 'string' },
      'key-file': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
}

/** Runs one command line and resolves with the exit status. */
export async function main(
  argv: readonly string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
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
    case undefined:
    case 'run': {
      if (rest.length > 1) return badUsage('run takes at most one flow file');
      const options = {
        level,
        format,
        watch: values.watch === true,
        state: values.state,
        machineEdits: values['allow-machine-edits'] === true,
      };
      if (rest[0] !== undefined) return run(rest[0], options, err);
      const first = await firstFlow(process.cwd());
      if (first.made) err.write(madeFirstFlow(first.path, first.made.console));
      return run(first.path, options, err);
    }
    case 'state':
      return stateCommand(rest, values.state, out, err, badUsage);
    case 'validate': {
      if (rest.length !== 1) return badUsage('validate takes exactly one flow file');
      // What the flow's connections learnt as they ran (a module's definitions) is read from its state folder.
      const result = await loadFlowFile(rest[0] as string, process.env, { stateFolder: stateFolderOf(rest[0] as string, values.state) });
      if (!result.ok) {
        err.write(`${result.error.message}\n`);
        return Exit.Usage;
      }
      const { path, connections, warnings } = result.flow;
      const count = warnings.length === 1 ? 'a warning' : `${warnings.length} warnings`;
      const listed = `${connections.length} connection${connections.length === 1 ? '' : 's'}`;
      out.write(`${path}: valid (${listed})${warnings.length > 0 ? `, with ${count}:` : ''}\n`);
      for (const warning of warnings) out.write(`  ${formatIssue(warning)}\n`);
      return Exit.Ok;
    }
    case 'schema': {
      if (rest.length > 1) return badUsage('schema takes at most one flow file');
      if (rest.length === 0) {
        out.write(flowFileJsonSchema());
        return Exit.Ok;
      }
      // The types of the flow's packages, whatever else the file holds: an editor wants the schema of a file being written.
      // With the state folder a hub of the flow keeps, a connection's own settings too (a Companion module's config fields).
      const result = await loadFlowFile(rest[0] as string, process.env, {
        start: true,
        stateFolder: stateFolderOf(rest[0] as string, values.state),
      });
      const plugins = result.ok ? result.flow.plugins : await pluginsOf(rest[0] as string);
      for (const { error } of plugins.refused) err.write(`${error.code}: ${error.message}\n`);
      out.write(flowFileJsonSchema(plugins, result.ok ? result.flow.connections : []));
      return Exit.Ok;
    }
    case 'reference': {
      if (rest.length !== 1) return badUsage('reference takes exactly one flow file');
      const result = await loadFlowFile(rest[0] as string, process.env, {
        start: true,
        stateFolder: stateFolderOf(rest[0] as string, values.state),
      });
      const plugins = result.ok ? result.flow.plugins : await pluginsOf(rest[0] as string);
      for (const { error } of plugins.refused) err.write(`${error.code}: ${error.message}\n`);
      // Each connection whose type knows its settings finer, as it knows them with this state folder (a module that ran).
      const own = (result.ok ? result.flow.connections : []).flatMap(({ id, plan }) => {
        const settings = plan.settingsOf?.();
        return settings && Object.keys(settings).length > 0 ? [connectionPage(id, plan.type, settings as never)] : [];
      });
      if (plugins.types.length === 0 && own.length === 0) {
        err.write(
          `${rest[0]}: its plugins bring no connection types, and none of its connections knows settings of its own here (a Companion module connection does once it ran with this state folder)\n`,
        );
        return Exit.Usage;
      }
      out.write([...plugins.types.map((type) => referencePage(type)), ...own].join('\n'));
      return Exit.Ok;
    }
    case 'witness':
      return witness(values, { level, format }, err, badUsage);
    default:
      return badUsage(`unknown command "${command}"`);
  }
}

/** What `npx patchbay` says once, when it made the first flow file: where, and the console's address with the admin token. */
const madeFirstFlow = (path: string, console: string) =>
  `patchbay: made ${path}: a rest-api on this machine (127.0.0.1), and nothing else yet.
Open the console and add your devices; this address holds the admin token, shown only now (keep it):
  ${console}
`;

interface RunOptions {
  readonly level: LogLevel;
  readonly format: LogFormat;
  readonly watch: boolean;
  /** `--state`: a folder, `none`, or undefined for the default beside the flow file. */
  readonly state: string | undefined;
  /** `--allow-machine-edits`: admin logins may change what names code, files or devices here. */
  readonly machineEdits: boolean;
}

async function run(
  file: string,
  { level, format, watch, state: stateOption, machineEdits }: RunOptions,
  err: NodeJS.WritableStream,
): Promise<number> {
  // Read to start: a mistake that keeps one connection alone from starting fails that
  // connection, not the hub (R-X2).
  const stateFolder = stateFolderOf(file, stateOption);
  const loaded = await loadFlowFile(file, process.env, { start: true, stateFolder });
  if (!loaded.ok) {
    err.write(`${loaded.error.message}\n`);
    return Exit.Usage;
  }
  // Logs are a side channel: a reader that goes away (a closed pipe) must not turn every
  // later log line into an error that is itself logged.
  err.on('error', () => {});
  const log = createLogger({ level, format, destination: err });
  // A listener that throws is reported and the graph carries on (the default would
  // rethrow it asynchronously and end the process); a code flow's listener fails its flow.
  rxjsConfig.onUnhandledError = (error) => {
    if (!codeFlowFailed(error)) log.error(`unhandled error in a subscriber: ${reasonOf(error)}`);
  };
  log.info(`flow file ${loaded.flow.path}`);
  for (const { name, version, folder, types } of loaded.flow.plugins.packages)
    log.info(`package ${name} ${version} (${folder}): connection type${types.length > 1 ? 's' : ''} ${types.join(', ')}`);
  for (const { index, error, repeats } of loaded.flow.plugins.refused)
    log.error(
      `plugins[${index}]: ${error.code}: ${error.message}${repeats === undefined ? ' (its connections fail to start; the others run)' : ''}`,
    );
  for (const issue of loaded.flow.diagnostics) log.warn(`${formatIssue(issue)} (that connection will fail to start; the others run)`);
  for (const issue of loaded.flow.warnings) log.warn(formatIssue(issue));
  const folder = stateFolder;
  const state = folder === undefined ? undefined : StateStore.openOrWait(folder, { durability: loaded.flow.durability });
  log.info(
    state
      ? `state folder ${folder} (durability: ${loaded.flow.durability})`
      : 'no state folder: values start from their defaults and are not kept',
  );
  // Browsers signed in by token stay signed in across restarts when the key is kept (R-H11).
  const signInKey = folder === undefined ? undefined : new KeptSessionKey(folder, log);
  // Whether admin logins may change this machine: started so, or the running flow's `machineEdits` as it holds (R-ST8).
  const editsHere = () => (machineEdits || flow.machineEdits === true ? 'allowed' : 'refused');
  // The console's editor saves the file and applies it by the reload below (R-ED2).
  let applyFlow: (next: Flow) => Promise<void> = () => Promise.reject(new Error('the hub has not started'));
  const flowFile = new FlowEditor({
    path: loaded.flow.path,
    historyFolder: folder === undefined ? undefined : join(folder, 'flow-history'),
    stateFolder: folder,
    apply: (next) => applyFlow(next),
    // The types of the flow running now: a package added by a save is in the forms once applied.
    schema: () => flowFileJsonSchema(flow.plugins, flow.connections),
    machineEdits: editsHere,
    types: () => [...connectionTypes, ...flow.plugins.types],
    untouchable: folder === undefined ? [] : [folder],
    log,
    scheduler: realTime,
  });
  const store = new Store({
    path: loaded.flow.path,
    machineEdits: editsHere,
    types: () => [...connectionTypes, ...flow.plugins.types],
    log,
    companionModules: () =>
      companionModuleFolders({ env: process.env, platform: process.platform, home: homedir() }, flow.companionModules),
  });
  if (machineEdits)
    log.warn(
      '--allow-machine-edits: admin logins may change code flows, plugins, files and devices of this machine from the console, and so run code as this user',
    );
  else if (loaded.flow.machineEdits)
    log.info('machineEdits: admin logins may install packages and modules from the console, while the hub is served on this machine alone');
  const hub = new Hub({
    flow: loaded.flow,
    log,
    flowFile,
    store,
    ...(state ? { state } : {}),
    ...(signInKey ? { signInKey: () => signInKey.current() } : {}),
  });
  const release = keepAlive();
  let watcher: { refresh(): void; close(): void } | undefined;
  let flow = loaded.flow;

  // One reload at a time, for `--watch` and SIGHUP alike; none before the hub has started.
  const started = hub.start();
  let reloads: Promise<void> = started.catch(() => {});
  /** The reload being applied to the hub, which a stop lets finish. */
  let applying: Promise<unknown> = Promise.resolve();
  let stopping = false;
  /** What the last reload was refused for, until one is taken. */
  let lastRefusal: string | undefined;
  /**
   * An editor's one save can reach the watcher as events further apart than it waits for
   * (a write, then the same text again): `--watch` says a refusal once until its mistakes
   * change. A SIGHUP is an operator asking, and is always answered.
   */
  const refused = (reason: string, asked: boolean) => {
    const repeated = reason === lastRefusal && !asked;
    lastRefusal = reason;
    if (repeated) return log.debug('reload refused again for the same mistakes, said above');
    log.error(`reload refused, the running flow is kept: ${reason}`);
  };
  // A flow saved from the console: applied in turn with the other reloads; rejects when the hub refuses it.
  applyFlow = (next) => {
    const done = reloads.then(async () => {
      if (stopping) throw new Error('the hub is stopping');
      applying = hub.reload(next);
      await applying;
      flow = next;
      lastRefusal = undefined;
      watcher?.refresh();
    });
    reloads = done.catch(() => {});
    return done;
  };
  const reload = (asked: boolean) => {
    reloads = reloads.then(async () => {
      if (stopping) return;
      const next = await loadFlowFile(loaded.flow.path, process.env, { stateFolder });
      if (!next.ok) return refused(next.error.message, asked);
      if (stopping) return;
      applying = hub.reload(next.flow).then(
        () => {
          flow = next.flow;
          lastRefusal = undefined;
        },
        (error: unknown) =>
          // A code flow that would not load as edited: the hub runs on as it was, as above.
          error instanceof ReloadRefused ? refused(error.message, asked) : log.error(`reload failed: ${reasonOf(error)}`),
      );
      await applying;
      watcher?.refresh();
    });
  };

  return new Promise<number>((resolve) => {
    const stop = (why: string, status: number) => {
      if (stopping) {
        log.warn(`${why} while stopping: exiting now`);
        return resolve(Exit.RuntimeFailure);
      }
      stopping = true;
      watcher?.close();
      log.info(`stopping (${why})`);
      // A reload under way finishes first, so the hub stops what it runs.
      applying
        .then(() => hub.stop())
        .then(
          () => resolve(status),
          (error: unknown) => {
            log.error(`stop failed: ${reasonOf(error)}`);
            resolve(Exit.RuntimeFailure);
          },
        );
    };
    process.on('SIGINT', () => stop('SIGINT', Exit.Ok));
    process.on('SIGTERM', () => stop('SIGTERM', Exit.Ok));
    // SIGHUP reloads the flow file as one `--watch` change would, so a service manager's
    // `reload` works; its default action would end the process without a word.
    process.on('SIGHUP', () => {
      if (stopping) return;
      log.info('SIGHUP: reloading the flow file');
      reload(true);
    });
    // An error that escapes every handler — thrown from a timer, or a rejection nobody
    // handles — is a failure of the code flow that raised it, when one did: that flow is
    // reported and stopped and the hub runs on (R-R6). Anything else ends the hub.
    const escaped = (error: unknown) => {
      if (codeFlowFailed(error)) return;
      if (stopping) return resolve(Exit.RuntimeFailure);
      log.fatal(`uncaught: ${reasonOf(error, { stack: true })}`);
      stop('runtime failure', Exit.RuntimeFailure);
    };
    process.on('uncaughtException', escaped);
    process.on('unhandledRejection', escaped);
    started.then(
      () => {
        if (watch && !stopping)
          watcher = watchForReload(
            hub,
            () => flow,
            () => reload(false),
            log,
          );
      },
      (error: unknown) => {
        log.fatal(`start failed: ${reasonOf(error)}`);
        stop('runtime failure', Exit.RuntimeFailure);
      },
    );
  })
    .finally(() => {
      signInKey?.close();
      return state?.close();
    })
    .finally(release);
}

/**
 * `--watch`: every change of the flow file, its code flows, or the local modules they
 * import (what a reload reads afresh) calls `reload`. Imported modules may be told of a
 * little after their flow started, so the list follows them, and it only grows: a file a
 * reload no longer loads costs at most a spare reload, while one dropped for a moment
 * could miss an edit.
 */
function watchForReload(hub: Hub, current: () => Flow, reload: () => void, log: Logger): { refresh(): void; close(): void } {
  const watcher = new FlowWatcher(reload, realTime);
  const files = new Set<string>();
  const refresh = () => {
    const before = files.size;
    const flow = current();
    for (const file of [flow.path, ...flow.flows, ...hub.codeFlowFiles()]) files.add(file);
    if (files.size > before) watcher.watch([...files]);
  };
  const following = hub.codeFlowFiles$.subscribe(refresh);
  refresh();
  log.info(`watching ${current().path} and its code flows for changes`);
  return {
    refresh,
    close: () => {
      following.unsubscribe();
      watcher.close();
    },
  };
}
