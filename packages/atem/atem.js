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
  checked,
  ClientLink,
  CommandedParameters,
  connectTimeoutSetting,
  defineConnectionType,
  hostSetting,
  HubError,
  portSetting,
  Type,
  withDefault,
} from 'patchbay-hub/connection';
import { Atem } from 'atem-connection';
import { ClassicAudio } from './audio.js';
import { Cameras } from './camera.js';
import { Clock } from './clock.js';
import { Fades } from './fades.js';
import { FairlightAudio } from './fairlight.js';
import { Inputs } from './inputs.js';
import { parameterList } from './parameter-list.js';
import { Keyers } from './keyers.js';
import { Macros } from './macros.js';
import { Media } from './media.js';
import { MixEffects } from './mix-effects.js';
import { Multiviewers } from './multiviewer.js';
import { Outputs } from './outputs.js';
import { steps, writeOnly } from './steps.js';
import { SuperSources } from './super-source.js';
import { Timecode } from './timecode.js';
import { Transitions } from './transitions.js';

const settings = Type.Object({
  host: hostSetting('The switcher: a host name or an IP address.'),
  port: withDefault(portSetting("The switcher's UDP port."), 9910),
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
  #mixEffects;
  #transitions;
  #keyers;
  #macros;
  #media;
  #multiviewers;
  #superSources;
  #outputs;
  #audio;
  #fairlight;
  #timecode;
  #clock;
  #cameras;
  #fades;
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
    /** @param {() => Promise<unknown>} command @param {import('patchbay-hub/connection').Answered} [answered] */
    const send = (command, answered) => this.#link.command(() => this.#taken(command), answered);
    this.#parameters = new CommandedParameters(context, { command: send });
    // Writes that keep nothing (a step, a fade, a time), each a command through the link too.
    const write = writeOnly(this.#parameters, send);
    const step = steps(write);
    this.#fades = new Fades(context.scheduler, write, (command) => send(command));
    const fade = this.#fades.fade;
    this.#model = this.#parameters.readOnly('device/model', { type: 'S', meta: { label: 'Model' } });
    this.#mixEffects = new MixEffects(this.#atem, this.#parameters, fade);
    this.#transitions = new Transitions(this.#atem, this.#parameters, write);
    this.#keyers = new Keyers(this.#atem, this.#parameters);
    this.#macros = new Macros(this.#atem, this.#parameters);
    this.#media = new Media(this.#atem, this.#parameters, write);
    this.#multiviewers = new Multiviewers(this.#atem, this.#parameters);
    this.#superSources = new SuperSources(this.#atem, this.#parameters, write);
    this.#outputs = new Outputs(this.#atem, this.#parameters);
    this.#timecode = new Timecode(this.#atem, this.#parameters, write);
    this.#clock = new Clock(this.#atem, this.#parameters, step);
    this.#cameras = new Cameras(this.#atem, this.#parameters, write);
    this.#audio = new ClassicAudio(this.#atem, this.#parameters, step, fade);
    this.#fairlight = new FairlightAudio(this.#atem, this.#parameters, step, fade, write);
    this.#inputs = new Inputs(this.#atem, this.#parameters);
  }

  start() {
    return this.#link.start();
  }

  stop() {
    this.#fades.stop();
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
    atem.on('receivedCommands', (commands) => this.#cameras.heard(commands));
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
    state.video.mixEffects.forEach((m, me) => {
      this.#mixEffects.read(state, me);
      this.#transitions.read(state, me);
      m?.upstreamKeyers.forEach((_k, key) => this.#keyers.upstream(state, me, key));
    });
    state.video.auxilliaries.forEach((_a, aux) => this.#readAux(state, aux));
    state.video.downstreamKeyers.forEach((_k, key) => this.#keyers.downstream(state, key));
    this.#macros.read(state);
    this.#media.read(state);
    state.settings.multiViewers.forEach((_m, mv) => this.#multiviewers.read(state, mv));
    state.video.superSources.forEach((_s, ssrc) => this.#superSources.read(state, ssrc));
    this.#outputs.read(state);
    this.#audio.read(state);
    this.#fairlight.read(state);
    this.#timecode.read(state);
    this.#clock.read(state);
    this.#cameras.read(state);
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
      const [head, kind, index, part, key, keyPart] = path.split('.');
      if (head === 'inputs') names = true;
      else if (head === 'macro') this.#macros.read(state);
      else if (head === 'media') this.#media.changed(state, kind, index === undefined ? undefined : Number(index));
      else if (head === 'streaming' || head === 'recording') this.#outputs.read(state);
      else if (head === 'audio') this.#audio.read(state, kind, index === undefined ? undefined : Number(index));
      else if (head === 'displayClock') this.#clock.read(state);
      else if (head === 'fairlight') this.#fairlight.read(state, kind, index === undefined ? undefined : Number(index));
      else if (head === 'settings' && kind === 'timeMode') this.#timecode.read(state);
      else if (head === 'settings' && kind === 'multiViewers')
        this.#multiviewers.read(state, Number(index), part === 'windows' && key !== undefined ? Number(key) : undefined);
      else if (head === 'video' && kind === 'superSources')
        this.#superSources.read(state, Number(index), part === 'boxes' && key !== undefined ? Number(key) : undefined);
      else if (head === 'video' && kind === 'mixEffects' && part === 'upstreamKeyers') {
        this.#keyers.upstream(state, Number(index), Number(key), keyPart);
        onAir = true;
      } else if (head === 'video' && kind === 'mixEffects') {
        this.#mixEffects.read(state, Number(index), part);
        this.#transitions.read(state, Number(index), part);
        onAir = true;
      } else if (head === 'video' && kind === 'auxilliaries') this.#readAux(state, Number(index));
      else if (head === 'video' && kind === 'downstreamKeyers') {
        this.#keyers.downstream(state, Number(index));
        onAir = true;
      }
    }
    if (names) this.#inputs.names(state);
    if (names) this.#cameras.read(state);
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
}

export default defineConnectionType({
  type: 'atem',
  summary:
    'A Blackmagic ATEM vision mixer (UDP 9910): M/Es, transitions, fade to black, keyers, auxes, media, macros, multiviewers, SuperSource, audio, streaming, recording, tally, camera control.',
  parameters: parameterList,
  settings,
  parse: (written) => checked([], written),
  discovers: () => ({ parameters: true }),
  create: (context, parsed) => new AtemConnection(context, parsed),
});
