// @ts-check
/**
 * `atem`: a Blackmagic ATEM vision mixer, through the client library `atem-connection`,
 * which connects, acknowledges, retransmits and reconnects on its own (UDP 9910);
 * `ClientLink` takes what it says as the connection's status and gives its commands the
 * hub's fencing and timeout (R-PK7). Built on `patchbay-hub/connection` alone.
 *
 * The switcher's M/Es, auxes, keyers and macros are numbered from 1, as its panel and its
 * software name them (`me/1` is M/E 1); inputs keep the switcher's own numbers (`input/1` is
 * input 1, `input/1000` colour bars), which are also the values of every source parameter.
 * Parameters are defined when the switcher has said what it has, on the first connect,
 * without a declared value: what the switcher says is their first value, a change that the
 * hub's rules take even as it starts (R-DV2) — an input off air says `false`, it is not
 * assumed.
 */
import {
  ClientLink,
  CommandedParameters,
  checked,
  connectTimeoutSetting,
  defineConnectionType,
  HubError,
  Type,
  withDefault,
} from 'patchbay-hub/connection';
import { Atem } from 'atem-connection';
import { Inputs } from './inputs.js';
import { MixEffects } from './mix-effects.js';

const settings = Type.Object({
  host: Type.String({ minLength: 1, description: 'The switcher: a host name or an IP address.' }),
  port: withDefault(Type.Integer({ minimum: 1, maximum: 65_535, description: "The switcher's UDP port." }), 9910),
  timeout: withDefault(
    Type.Integer({ minimum: 100, maximum: 60_000, description: 'Milliseconds a command waits for the switcher to take it.' }),
    2000,
  ),
  connectTimeout: connectTimeoutSetting,
});

/** @typedef {import('atem-connection').AtemState} AtemState */
/** @typedef {import('patchbay-hub/connection').Parsed<typeof settings>} Settings */

/** A switcher: the library's link to it, and what it says read onto parameters. */
class AtemConnection {
  #context;
  #settings;
  #atem = new Atem({ disableMultithreaded: true });
  /** Counts the switcher's sessions: one more at each disconnect. */
  #sessions = 0;
  #link;
  #parameters;
  #model;
  #running;
  #mixEffects;
  #inputs;

  /**
   * @param {import('patchbay-hub/connection').ConnectionContext} context
   * @param {Settings} settings
   */
  constructor(context, settings) {
    this.#context = context;
    this.#settings = settings;
    this.#link = new ClientLink(
      { start: (events) => this.#follow(events), close: () => this.#atem.destroy() },
      {
        scheduler: context.scheduler,
        status: context.setStatus,
        timeoutMs: settings.timeout,
        fence: context.fence,
        connectTimeoutMs: settings.connectTimeout,
      },
    );
    // A command is taken when the switcher acknowledged it within the session it was sent in.
    this.#parameters = new CommandedParameters(context, {
      command: (command, answered) => this.#link.command(() => this.#taken(command), answered),
    });
    this.#model = this.#parameters.readOnly('device/model', { type: 'S', meta: { label: 'Model' } });
    this.#running = this.#parameters.readOnly('macro/running', { type: 'I', meta: { label: 'Macro running' } });
    this.#parameters.trigger('macro/stop', { label: 'Stop macro' }, () => this.#atem.macroStop());
    this.#mixEffects = new MixEffects(this.#atem, this.#parameters);
    this.#inputs = new Inputs(this.#atem, this.#parameters);
  }

  start() {
    return this.#link.start();
  }

  stop() {
    return this.#link.stop();
  }

  details() {
    return { host: this.#settings.host, port: this.#settings.port };
  }

  /** Connects, and follows what the library says of the switcher. @param {import('patchbay-hub/connection').LinkAttempt} events */
  #follow(events) {
    const atem = this.#atem;
    atem.on('connected', () => {
      events.up();
      this.#readAll();
    });
    atem.on('disconnected', () => {
      this.#sessions += 1;
      events.down('the switcher stopped answering');
    });
    atem.on('stateChanged', (_state, paths) => this.#changed(paths));
    atem.on('error', (message) => this.#context.log.warn(`atem-connection: ${message}`));
    atem.connect(this.#settings.host, this.#settings.port).catch((error) => events.down(`cannot reach the switcher: ${error}`));
  }

  /**
   * The library resolves a command when the switcher acknowledged it, but also when the
   * link collapsed first (it settles its queue at a disconnect, never rejecting): a
   * command whose session ended before it settled was not taken, and is answered so.
   * @param {() => Promise<unknown>} command
   */
  #taken(command) {
    const session = this.#sessions;
    return command().then(() => {
      if (session !== this.#sessions) throw new HubError('PB_DEVICE_UNAVAILABLE', 'the switcher went away before it took the command');
    });
  }

  /** The whole state, on every connect. */
  #readAll() {
    const state = this.#atem.state;
    if (!state) return;
    this.#model.report(state.info.productIdentifier ?? '');
    state.video.mixEffects.forEach((_m, me) => this.#mixEffects.read(state, me));
    state.video.auxilliaries.forEach((_a, aux) => this.#readAux(state, aux));
    state.video.downstreamKeyers.forEach((_k, key) => this.#readKeyer(state, key));
    this.#readMacros(state);
    this.#inputs.names(state);
    this.#inputs.tally(state);
  }

  /**
   * What changed, by the library's state paths (`video.mixEffects.0.programInput`,
   * `inputs.3`, `macro.macroPlayer` …): only the parts they name are read again.
   * @param {string[]} paths
   */
  #changed(paths) {
    const state = this.#atem.state;
    if (!state) return;
    let names = false;
    let onAir = false;
    for (const path of paths) {
      const [head, kind, index, part] = path.split('.');
      if (head === 'inputs') names = true;
      else if (head === 'macro') this.#readMacros(state);
      else if (head === 'video' && kind === 'mixEffects') {
        this.#mixEffects.read(state, Number(index), part);
        onAir = true;
      } else if (head === 'video' && kind === 'auxilliaries') this.#readAux(state, Number(index));
      else if (head === 'video' && kind === 'downstreamKeyers') {
        this.#readKeyer(state, Number(index));
        onAir = true;
      }
    }
    if (names) this.#inputs.names(state);
    if (onAir || names) this.#inputs.tally(state);
  }

  /** @param {AtemState} state @param {number} aux from 0 */
  #readAux(state, aux) {
    const at = state.video.auxilliaries[aux];
    if (at === undefined) return;
    this.#parameters
      .commanded(`aux/${aux + 1}/source`, { type: 'I', meta: { label: `Aux ${aux + 1}` } }, (v) => this.#atem.setAuxSource(Number(v), aux))
      .report(at);
  }

  /** @param {AtemState} state @param {number} key from 0 */
  #readKeyer(state, key) {
    const at = state.video.downstreamKeyers[key];
    if (!at) return;
    const atem = this.#atem;
    const n = key + 1;
    this.#parameters
      .commanded(`dsk/${n}/onAir`, { type: 'B', meta: { label: `DSK ${n} on air` } }, (v) => atem.setDownstreamKeyOnAir(v === true, key))
      .report(at.onAir);
    this.#parameters
      .commanded(`dsk/${n}/tie`, { type: 'B', meta: { label: `DSK ${n} tie` } }, (v) => atem.setDownstreamKeyTie(v === true, key))
      .report(at.properties?.tie ?? false);
    this.#parameters.trigger(`dsk/${n}/auto`, { label: `DSK ${n} auto` }, () => atem.autoDownstreamKey(key));
  }

  /** The macros the switcher has, each by its name, and the one that runs. @param {AtemState} state */
  #readMacros(state) {
    state.macro.macroProperties.forEach((macro, index) => {
      if (!macro?.isUsed) return;
      const label = `Macro ${index + 1}: ${macro.name}`;
      this.#parameters.trigger(`macro/${index + 1}/run`, { label }, () => this.#atem.macroRun(index));
    });
    const player = state.macro.macroPlayer;
    this.#running.report(player.isRunning ? player.macroIndex + 1 : 0);
  }
}

export default defineConnectionType({
  type: 'atem',
  summary: 'A Blackmagic ATEM vision mixer (UDP 9910): program, preview and transitions per M/E, auxes, keyers, macros, tally.',
  parameters: [
    { id: 'me/<n>/program', type: 'I', access: 'read-write', description: "the M/E's program source (choices: the inputs, by name)" },
    { id: 'me/<n>/preview', type: 'I', access: 'read-write', description: "the M/E's preview source (choices: the inputs, by name)" },
    { id: 'me/<n>/cut', type: 'T', access: 'write-only', description: 'cuts preview to program' },
    { id: 'me/<n>/auto', type: 'T', access: 'write-only', description: 'runs the next transition' },
    { id: 'me/<n>/transition/style', type: 'S', access: 'read-write', description: 'the next transition: mix, dip, wipe, dve or sting' },
    { id: 'me/<n>/transition/rate', type: 'I', access: 'read-write', description: "the mix transition's duration", unit: 'frames' },
    { id: 'me/<n>/transition/running', type: 'B', access: 'read-only', description: 'whether a transition is under way' },
    { id: 'me/<n>/transition/position', type: 'F', access: 'read-only', description: 'how far the transition is, 0 to 1' },
    { id: 'aux/<n>/source', type: 'I', access: 'read-write', description: "the aux output's source (choices: the inputs, by name)" },
    { id: 'dsk/<n>/onAir', type: 'B', access: 'read-write', description: 'whether the downstream keyer is on air (a cut)' },
    { id: 'dsk/<n>/tie', type: 'B', access: 'read-write', description: 'whether the keyer goes with the next transition' },
    { id: 'dsk/<n>/auto', type: 'T', access: 'write-only', description: 'mixes the keyer on or off air at its rate' },
    { id: 'macro/<n>/run', type: 'T', access: 'write-only', description: 'runs the macro (labelled by its name)' },
    { id: 'macro/stop', type: 'T', access: 'write-only', description: 'stops the macro that runs' },
    { id: 'macro/running', type: 'I', access: 'read-only', description: 'the macro that runs, 0 when none' },
    { id: 'input/<id>/name', type: 'S', access: 'read-only', description: "the input's long name, as the switcher has it" },
    {
      id: 'input/<id>/tally/program',
      type: 'B',
      access: 'read-only',
      description: 'on air through M/E 1 (keyers and transitions counted)',
    },
    {
      id: 'input/<id>/tally/preview',
      type: 'B',
      access: 'read-only',
      description: 'on preview of M/E 1 (a transition in preview counted)',
    },
    { id: 'device/model', type: 'S', access: 'read-only', description: 'as the switcher names itself' },
  ],
  settings,
  parse: (written) => checked([], written),
  discovers: () => ({ parameters: true }),
  create: (context, parsed) => new AtemConnection(context, parsed),
});
