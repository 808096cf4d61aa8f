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
  parameters: [
    { id: 'me/<n>/program', type: 'I', access: 'read-write', description: "the M/E's program source (choices: the inputs, by name)" },
    { id: 'me/<n>/preview', type: 'I', access: 'read-write', description: "the M/E's preview source (choices: the inputs, by name)" },
    { id: 'me/<n>/cut', type: 'T', access: 'write-only', description: 'cuts preview to program' },
    { id: 'me/<n>/auto', type: 'T', access: 'write-only', description: 'runs the next transition' },
    { id: 'me/<n>/transition/style', type: 'S', access: 'read-write', description: 'the next transition: mix, dip, wipe, dve or sting' },
    { id: 'me/<n>/transition/rate', type: 'I', access: 'read-write', description: "the mix transition's duration", unit: 'frames' },
    { id: 'me/<n>/transition/running', type: 'B', access: 'read-only', description: 'whether a transition is under way' },
    { id: 'me/<n>/transition/position', type: 'F', access: 'read-write', description: 'the T-bar: how far the transition is, 0 to 1' },
    {
      id: 'me/<n>/transition/position/fade',
      type: 'S',
      access: 'write-only',
      description: 'moves the T-bar over a time: {"to": 1, "ms": 1000, "algorithm": …, "curve": …}',
    },
    { id: 'me/<n>/transition/preview', type: 'B', access: 'read-write', description: 'the next transition previewed on program' },
    { id: 'me/<n>/transition/dip/rate', type: 'I', access: 'read-write', description: "the dip transition's duration", unit: 'frames' },
    { id: 'me/<n>/transition/wipe/rate', type: 'I', access: 'read-write', description: "the wipe transition's duration", unit: 'frames' },
    { id: 'me/<n>/transition/dve/rate', type: 'I', access: 'read-write', description: "the DVE transition's duration", unit: 'frames' },
    {
      id: 'me/<n>/transition/selection',
      type: 'S',
      access: 'read-write',
      description: 'the layers the next transition moves, a JSON object of background and key1 … (true or false)',
    },
    {
      id: 'me/<n>/transition/layers',
      type: 'S',
      access: 'write-only',
      description: 'the layers by what the transition leaves: {"background": "include", "key1": "on", …} (include, omit, on, off)',
    },
    { id: 'me/<n>/transition/next/<layer>', type: 'B', access: 'read-write', description: 'whether the next transition moves the layer' },
    { id: 'me/<n>/ftb/auto', type: 'T', access: 'write-only', description: 'fades the M/E to black, or back' },
    { id: 'me/<n>/ftb/rate', type: 'I', access: 'read-write', description: "the fade to black's duration", unit: 'frames' },
    { id: 'me/<n>/ftb/black', type: 'B', access: 'read-only', description: 'whether the M/E is faded to black' },
    { id: 'me/<n>/ftb/running', type: 'B', access: 'read-only', description: 'whether a fade to black is under way' },
    { id: 'me/<n>/usk/<k>/onAir', type: 'B', access: 'read-write', description: 'the upstream keyer on air (a cut)' },
    { id: 'me/<n>/usk/<k>/type', type: 'S', access: 'read-write', description: "the keyer's type: luma, chroma, pattern or dve" },
    { id: 'me/<n>/usk/<k>/fly', type: 'B', access: 'read-write', description: 'whether the key is a flying key' },
    { id: 'me/<n>/usk/<k>/fill', type: 'I', access: 'read-write', description: "the keyer's fill source (choices: the inputs)" },
    { id: 'me/<n>/usk/<k>/key', type: 'I', access: 'read-write', description: "the keyer's key (cut) source (choices: the inputs)" },
    {
      id: 'me/<n>/usk/<k>/pattern',
      type: 'S',
      access: 'read-write',
      description: 'the pattern key: {"style", "size", "symmetry", "softness", "x", "y", "invert"}',
    },
    {
      id: 'me/<n>/usk/<k>/mask',
      type: 'S',
      access: 'read-write',
      description: 'the mask: {"enabled": …, "top": …, "bottom": …, "left": …, "right": …}',
    },
    { id: 'me/<n>/usk/<k>/sources', type: 'S', access: 'read-write', description: 'fill and key in one write: {"fill": …, "key": …}' },
    {
      id: 'me/<n>/usk/<k>/keyframe',
      type: 'S',
      access: 'read-write',
      description: 'flies the key to keyframe a, b or full; reads where it is: a, b, infinite or none',
    },
    { id: 'me/<n>/usk/<k>/infinite', type: 'S', access: 'read-write', description: 'flies the key to infinite, in a direction' },
    { id: 'me/<n>/usk/<k>/store/<a|b>', type: 'T', access: 'write-only', description: "stores the key's state as keyframe A or B" },
    { id: 'me/<n>/usk/<k>/stored/<a|b>', type: 'B', access: 'read-only', description: 'whether keyframe A or B is stored' },
    { id: 'aux/<n>/source', type: 'I', access: 'read-write', description: "the aux output's source (choices: the inputs, by name)" },
    { id: 'dsk/<n>/onAir', type: 'B', access: 'read-write', description: 'whether the downstream keyer is on air (a cut)' },
    { id: 'dsk/<n>/tie', type: 'B', access: 'read-write', description: 'whether the keyer goes with the next transition' },
    { id: 'dsk/<n>/auto', type: 'T', access: 'write-only', description: 'mixes the keyer on or off air at its rate' },
    { id: 'dsk/<n>/rate', type: 'I', access: 'read-write', description: "the keyer's auto duration", unit: 'frames' },
    {
      id: 'dsk/<n>/premultiplied',
      type: 'S',
      access: 'read-write',
      description: 'the key\'s shape: {"preMultiply": …, "clip": %, "gain": %, "invert": …}',
    },
    {
      id: 'dsk/<n>/mask',
      type: 'S',
      access: 'read-write',
      description: 'the mask: {"enabled": …, "top": …, "bottom": …, "left": …, "right": …}',
    },
    { id: 'dsk/<n>/fill', type: 'I', access: 'read-write', description: "the keyer's fill source (choices: the inputs)" },
    { id: 'dsk/<n>/key', type: 'I', access: 'read-write', description: "the keyer's key (cut) source (choices: the inputs)" },
    { id: 'dsk/<n>/sources', type: 'S', access: 'read-write', description: 'fill and key in one write: {"fill": …, "key": …}' },
    { id: 'macro/<n>/run', type: 'T', access: 'write-only', description: 'runs the macro (labelled by its name)' },
    {
      id: 'macro/<n>/runContinue',
      type: 'T',
      access: 'write-only',
      description: 'continues the macro if it waits, else runs it (labelled by its name)',
    },
    { id: 'macro/<n>/used', type: 'B', access: 'read-only', description: 'whether a macro is recorded at this place of the pool' },
    { id: 'macro/stop', type: 'T', access: 'write-only', description: 'stops the macro that runs' },
    { id: 'macro/continue', type: 'T', access: 'write-only', description: 'continues the macro that waits' },
    { id: 'macro/loop', type: 'B', access: 'read-write', description: 'whether a macro run loops' },
    { id: 'macro/running', type: 'I', access: 'read-only', description: 'the macro that runs, 0 when none' },
    { id: 'macro/waiting', type: 'B', access: 'read-only', description: 'whether the macro that runs waits to be continued' },
    { id: 'macro/recording', type: 'I', access: 'read-only', description: 'the macro being recorded, 0 when none' },
    { id: 'input/<id>/name', type: 'S', access: 'read-write', description: "the input's long name, as the switcher has it" },
    { id: 'input/<id>/shortName', type: 'S', access: 'read-write', description: "the input's short name (4 characters)" },
    { id: 'input/<id>/names', type: 'S', access: 'read-write', description: 'both names in one write: {"long": …, "short": …}' },
    {
      id: 'mp/<n>/source',
      type: 'S',
      access: 'read-write',
      description: 'what the media player plays: still/<n> or clip/<n> (choices by name)',
    },
    {
      id: 'mp/<n>/slot',
      type: 'S',
      access: 'write-only',
      description: 'a still or clip by its place or name: {"slot": "Slate", "clip": false}',
    },
    { id: 'mp/<n>/next', type: 'T', access: 'write-only', description: 'the media player to the next still of the pool' },
    { id: 'mp/<n>/previous', type: 'T', access: 'write-only', description: 'the media player to the previous still of the pool' },
    { id: 'media/capture', type: 'T', access: 'write-only', description: 'captures a still from program into the pool' },
    { id: 'media/still/<n>/name', type: 'S', access: 'read-only', description: "the still's name, empty when the place is free" },
    { id: 'media/still/<n>/clear', type: 'T', access: 'write-only', description: 'clears the still from the pool' },
    { id: 'mv/<n>/layout', type: 'S', access: 'read-write', description: 'the quarters split in four: {"topLeft": true, …}' },
    {
      id: 'mv/<n>/window/<w>/source',
      type: 'I',
      access: 'read-write',
      description: "the multiviewer window's source (choices: the inputs)",
    },
    {
      id: 'ssrc/<n>/art',
      type: 'S',
      access: 'read-write',
      description: 'the art in one write: fill, key, option, preMultiplied, clip, gain, invert',
    },
    { id: 'ssrc/<n>/art/fill', type: 'I', access: 'read-write', description: "the art's fill (choices: the inputs)" },
    { id: 'ssrc/<n>/art/key', type: 'I', access: 'read-write', description: "the art's key (choices: the inputs)" },
    {
      id: 'ssrc/<n>/art/option',
      type: 'S',
      access: 'read-write',
      description: 'the art behind (background) or in front of (foreground) the boxes',
    },
    { id: 'ssrc/<n>/box/<b>/offset', type: 'S', access: 'write-only', description: 'moves the box by x, y, size, cropTop … written' },
    { id: 'ssrc/<n>/box/<b>/enabled', type: 'B', access: 'read-write', description: 'the SuperSource box on' },
    { id: 'ssrc/<n>/box/<b>/source', type: 'I', access: 'read-write', description: "the box's source (choices: the inputs)" },
    { id: 'ssrc/<n>/box/<b>/x', type: 'F', access: 'read-write', description: "the box's centre, across, -48 to 48" },
    { id: 'ssrc/<n>/box/<b>/y', type: 'F', access: 'read-write', description: "the box's centre, up, -27 to 27" },
    { id: 'ssrc/<n>/box/<b>/size', type: 'F', access: 'read-write', description: "the box's size, 0.07 to 1" },
    { id: 'ssrc/<n>/box/<b>/cropped', type: 'B', access: 'read-write', description: 'whether the box is cropped' },
    {
      id: 'ssrc/<n>/box/<b>/crop/<side>',
      type: 'F',
      access: 'read-write',
      description: 'the crop of a side: top and bottom 0 to 18, left and right 0 to 32',
    },
    { id: 'stream/on', type: 'B', access: 'read-write', description: 'starts or stops streaming; true while connecting or streaming' },
    { id: 'stream/state', type: 'S', access: 'read-only', description: 'idle, connecting, streaming or stopping' },
    {
      id: 'stream/service',
      type: 'S',
      access: 'read-write',
      description: 'the service: {"service": …, "url": …, "key": …}; reads without the key',
    },
    { id: 'record/on', type: 'B', access: 'read-write', description: 'starts or stops recording' },
    { id: 'record/state', type: 'S', access: 'read-only', description: 'idle, recording or stopping' },
    { id: 'record/filename', type: 'S', access: 'read-write', description: 'the name of the recording' },
    { id: 'record/iso', type: 'B', access: 'read-write', description: 'records every input (ISO)' },
    { id: 'record/switchDisk', type: 'T', access: 'write-only', description: 'records to the other disk' },
    {
      id: 'audio/input/<id>/mix',
      type: 'S',
      access: 'read-write',
      description: 'classic audio: the channel off, on, or afv (audio follows video)',
    },
    {
      id: 'audio/input/<id>/gain',
      type: 'F',
      access: 'read-write',
      description: "classic audio: the channel's gain, -60 to 6",
      unit: 'dB',
    },
    { id: 'audio/input/<id>/balance', type: 'F', access: 'read-write', description: "classic audio: the channel's balance, -50 to 50" },
    { id: 'audio/input/<id>/resetPeaks', type: 'T', access: 'write-only', description: "classic audio: resets the channel's peaks" },
    {
      id: 'audio/input/<id>/gain/step',
      type: 'F',
      access: 'write-only',
      description: "classic audio: moves the channel's gain",
      unit: 'dB',
    },
    {
      id: 'audio/master/<level>/step',
      type: 'F',
      access: 'write-only',
      description: "classic audio: moves the master's gain (dB) or balance",
    },
    {
      id: 'audio/<level>/fade',
      type: 'S',
      access: 'write-only',
      description: "classic audio: moves a channel's or the master's gain or balance to (or by) a value over a time",
    },
    { id: 'audio/master/gain', type: 'F', access: 'read-write', description: "classic audio: the master's gain, -60 to 6", unit: 'dB' },
    { id: 'audio/master/balance', type: 'F', access: 'read-write', description: "classic audio: the master's balance, -50 to 50" },
    { id: 'audio/master/resetPeaks', type: 'T', access: 'write-only', description: "classic audio: resets the master's peaks" },
    { id: 'audio/monitor/resetPeaks', type: 'T', access: 'write-only', description: "classic audio: resets the monitor's peaks" },
    { id: 'audio/resetPeaks', type: 'T', access: 'write-only', description: 'classic audio: resets every peak' },
    {
      id: 'fairlight/input/<id>/<source>/fader',
      type: 'F',
      access: 'read-write',
      description: "Fairlight: the source's fader",
      unit: 'dB',
    },
    {
      id: 'fairlight/input/<id>/<source>/gain',
      type: 'F',
      access: 'read-write',
      description: "Fairlight: the source's input gain",
      unit: 'dB',
    },
    {
      id: 'fairlight/input/<id>/<source>/balance',
      type: 'F',
      access: 'read-write',
      description: "Fairlight: the source's balance, -50 to 50",
    },
    {
      id: 'fairlight/input/<id>/<source>/delay',
      type: 'I',
      access: 'read-write',
      description: "Fairlight: the source's delay",
      unit: 'frames',
    },
    { id: 'fairlight/input/<id>/<source>/mix', type: 'S', access: 'read-write', description: 'Fairlight: the source off, on, or afv' },
    {
      id: 'fairlight/input/<id>/<source>/resetPeaks',
      type: 'T',
      access: 'write-only',
      description: "Fairlight: resets the source's peaks",
    },
    {
      id: 'fairlight/input/<id>/<source>/<level>/step',
      type: 'F',
      access: 'write-only',
      description: 'Fairlight: moves the fader, gain (dB) or delay (frames) by the value written',
    },
    {
      id: 'fairlight/<level>/fade',
      type: 'S',
      access: 'write-only',
      description: 'Fairlight: moves a fader, input gain or monitor level to (or by) a value over a time',
    },
    { id: 'fairlight/master/fader', type: 'F', access: 'read-write', description: "Fairlight: the master's fader", unit: 'dB' },
    { id: 'fairlight/master/fader/step', type: 'F', access: 'write-only', description: "Fairlight: moves the master's fader", unit: 'dB' },
    { id: 'fairlight/master/resetPeaks', type: 'T', access: 'write-only', description: "Fairlight: resets the master's peaks" },
    { id: 'fairlight/resetPeaks', type: 'T', access: 'write-only', description: 'Fairlight: resets every peak' },
    { id: 'fairlight/monitor/gain', type: 'F', access: 'read-write', description: "Fairlight: the monitor's gain", unit: 'dB' },
    {
      id: 'fairlight/monitor/<feed>/gain',
      type: 'F',
      access: 'read-write',
      description: 'Fairlight: the master, talkback or sidetone feed',
      unit: 'dB',
    },
    { id: 'fairlight/monitor/<level>/step', type: 'F', access: 'write-only', description: 'Fairlight: moves a monitor level', unit: 'dB' },
    { id: 'fairlight/monitor/<feed>/muted', type: 'B', access: 'read-write', description: 'Fairlight: the master or talkback feed muted' },
    {
      id: 'fairlight/routing/<output>/source',
      type: 'I',
      access: 'read-write',
      description: "Fairlight: an output's source (choices: the sources)",
    },
    {
      id: 'fairlight/routing',
      type: 'S',
      access: 'write-only',
      description: 'Fairlight: one source to several outputs: {"source": …, "to": "1501-1 1502-1"}',
    },
    {
      id: 'fairlight/monitor/solo',
      type: 'S',
      access: 'read-write',
      description: 'Fairlight: the source soloed, <input>/<source>, or empty',
    },
    { id: 'clock/state', type: 'S', access: 'read-write', description: 'the display clock running, stopped or reset' },
    {
      id: 'clock/properties',
      type: 'S',
      access: 'read-write',
      description: 'the display clock shown, size, opacity, x, y, autoHide, mode',
    },
    { id: 'clock/start', type: 'S', access: 'read-write', description: 'the time the display clock starts from, hh:mm:ss' },
    { id: 'clock/start/step', type: 'F', access: 'write-only', description: 'moves the start time by the seconds written', unit: 's' },
    { id: 'timecode/mode', type: 'S', access: 'read-write', description: 'free-run or time-of-day' },
    { id: 'timecode/set', type: 'S', access: 'write-only', description: 'the time the timecode counts from: hh:mm:ss or hh:mm:ss:ff' },
    { id: 'startup/save', type: 'T', access: 'write-only', description: "saves the switcher's state as its startup state" },
    { id: 'startup/clear', type: 'T', access: 'write-only', description: 'clears the startup state' },
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
    { id: 'camera/<n>/focus', type: 'F', access: 'write-only', description: 'camera control: focus, 0 to 1 (camera <n> is input <n>)' },
    { id: 'camera/<n>/focus/step', type: 'F', access: 'write-only', description: 'camera control: moves the focus, -1 to 1' },
    { id: 'camera/<n>/autoFocus', type: 'T', access: 'write-only', description: 'camera control: focuses once, by itself' },
    { id: 'camera/<n>/iris', type: 'F', access: 'write-only', description: 'camera control: the iris, 0 (closed) to 1 (open)' },
    {
      id: 'camera/<n>/iris/fStop',
      type: 'F',
      access: 'write-only',
      description: 'camera control: the iris as an f-stop number (-1 to 16)',
    },
    { id: 'camera/<n>/iris/step', type: 'F', access: 'write-only', description: 'camera control: moves the iris by stops', unit: 'stops' },
    { id: 'camera/<n>/autoIris', type: 'T', access: 'write-only', description: 'camera control: sets the iris once, by itself' },
    {
      id: 'camera/<n>/stabilisation',
      type: 'B',
      access: 'read-write',
      description: 'camera control: optical image stabilisation on (as the camera reports it)',
    },
    { id: 'camera/<n>/zoom/speed', type: 'F', access: 'write-only', description: 'camera control: zooms at a speed, -1 to 1 (0 stops)' },
    { id: 'camera/<n>/gain', type: 'I', access: 'write-only', description: 'camera control: the gain', unit: 'dB' },
    { id: 'camera/<n>/gain/step', type: 'I', access: 'write-only', description: 'camera control: moves the gain', unit: 'dB' },
    {
      id: 'camera/<n>/whiteBalance',
      type: 'S',
      access: 'write-only',
      description: 'camera control: white balance and tint, {"temperature": 5600, "tint": 0}',
    },
    {
      id: 'camera/<n>/whiteBalance/step',
      type: 'S',
      access: 'write-only',
      description: 'camera control: moves the white balance and tint, {"temperature": 100, "tint": -5}',
    },
    {
      id: 'camera/<n>/autoWhiteBalance',
      type: 'T',
      access: 'write-only',
      description: 'camera control: sets the white balance once, by itself',
    },
    {
      id: 'camera/<n>/exposure',
      type: 'I',
      access: 'read-write',
      description: 'camera control: the exposure (shutter), as the camera reports it',
      unit: 'µs',
    },
    {
      id: 'camera/<n>/shutter/step',
      type: 'S',
      access: 'write-only',
      description: 'camera control: up (faster) or down (slower) to the next usual shutter speed',
    },
    { id: 'camera/<n>/shutter', type: 'F', access: 'write-only', description: 'camera control: the shutter as a speed, 1/x s (x written)' },
    { id: 'camera/<n>/detail', type: 'S', access: 'write-only', description: 'camera control: sharpening, off, low, medium or high' },
    { id: 'camera/<n>/nd', type: 'F', access: 'write-only', description: 'camera control: the ND filter', unit: 'stops' },
    {
      id: 'camera/<n>/colorBars',
      type: 'B',
      access: 'read-write',
      description: 'camera control: colour bars shown (30 s) or not (as reported)',
    },
    {
      id: 'camera/<n>/record',
      type: 'B',
      access: 'read-write',
      description: 'camera control: the camera recording or stopped (as reported)',
    },
    {
      id: 'camera/record',
      type: 'S',
      access: 'write-only',
      description: 'camera control: several cameras recording or stopped, {"on": true, "cameras": "1 2 3"}',
    },
    {
      id: 'camera/<n>/<balance>',
      type: 'S',
      access: 'write-only',
      description: 'camera control: lift, gamma, colorGain or offset, {"red": …, "green": …, "blue": …, "luma": …}',
    },
    { id: 'camera/<n>/contrast', type: 'S', access: 'write-only', description: 'camera control: contrast, {"pivot": 0.5, "adjust": 1}' },
    { id: 'camera/<n>/lumaMix', type: 'F', access: 'write-only', description: 'camera control: luma mix, 0 to 1' },
    {
      id: 'camera/<n>/hueSaturation',
      type: 'S',
      access: 'write-only',
      description: 'camera control: hue (-1 to 1) and saturation (0 to 2), {"hue": 0, "saturation": 1}',
    },
    { id: 'device/model', type: 'S', access: 'read-only', description: 'as the switcher names itself' },
  ],
  settings,
  parse: (written) => checked([], written),
  discovers: () => ({ parameters: true }),
  create: (context, parsed) => new AtemConnection(context, parsed),
});
