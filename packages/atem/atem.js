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
import { ClientLink, checked, connectTimeoutSetting, defineConnectionType, HubError, Type, withDefault } from 'patchbay-hub/connection';
import { Atem, Enums } from 'atem-connection';

const settings = Type.Object({
  host: Type.String({ minLength: 1, description: 'The switcher: a host name or an IP address.' }),
  port: withDefault(Type.Integer({ minimum: 1, maximum: 65_535, description: "The switcher's UDP port." }), 9910),
  timeout: withDefault(
    Type.Integer({ minimum: 100, maximum: 60_000, description: 'Milliseconds a command waits for the switcher to take it.' }),
    2000,
  ),
  connectTimeout: connectTimeoutSetting,
});

/** Transition styles by the names people use, and the switcher's numbers for them. */
const STYLES = [
  { value: 'mix', label: 'Mix', style: Enums.TransitionStyle.MIX },
  { value: 'dip', label: 'Dip', style: Enums.TransitionStyle.DIP },
  { value: 'wipe', label: 'Wipe', style: Enums.TransitionStyle.WIPE },
  { value: 'dve', label: 'DVE', style: Enums.TransitionStyle.DVE },
  { value: 'sting', label: 'Stinger', style: Enums.TransitionStyle.STING },
];

/** The parameters whose values are inputs, offered by name. */
const SOURCES = /^(me\/\d+\/(program|preview)|aux\/\d+\/source)$/;

/** @typedef {import('patchbay-hub/connection').OwnedParameter} OwnedParameter */
/** @typedef {import('atem-connection').AtemState} AtemState */
/** @typedef {{ value: number, label: string }[]} Choices */

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
  create(context, { host, port, timeout, connectTimeout }) {
    const atem = new Atem({ disableMultithreaded: true });
    /** Counts the switcher's sessions: one more at each disconnect. */
    let sessions = 0;
    const link = new ClientLink(
      {
        start(events) {
          atem.on('connected', () => {
            events.up();
            refreshAll();
          });
          atem.on('disconnected', () => {
            sessions += 1;
            events.down('the switcher stopped answering');
          });
          atem.on('stateChanged', (_state, paths) => refresh(paths));
          atem.on('error', (message) => context.log.warn(`atem-connection: ${message}`));
          atem.connect(host, port).catch((error) => events.down(`cannot reach the switcher: ${error}`));
        },
        close: () => atem.destroy(),
      },
      {
        scheduler: context.scheduler,
        status: context.setStatus,
        timeoutMs: timeout,
        fence: context.fence,
        connectTimeoutMs: connectTimeout,
      },
    );

    /**
     * The library resolves a command when the switcher acknowledged it, but also when the
     * link collapsed first (it settles its queue at a disconnect, never rejecting): a
     * command whose session ended before it settled was not taken, and is answered so.
     * @param {() => Promise<unknown>} command
     */
    const taken = (command) => {
      const session = sessions;
      return command().then(() => {
        if (session !== sessions) throw new HubError('PB_DEVICE_UNAVAILABLE', 'the switcher went away before it took the command');
      });
    };

    /** Every parameter this connection has defined, by id: defined once, kept across reconnects. */
    /** @type {Map<string, OwnedParameter>} */
    const defined = new Map();
    /**
     * The parameter of this id, defined the first time it is asked for.
     * @param {string} id
     * @param {import('patchbay-hub/connection').ParameterSpec} spec
     */
    const parameter = (id, spec) => {
      let found = defined.get(id);
      if (!found) defined.set(id, (found = context.define(id, spec)));
      return found;
    };
    /**
     * A setting of the switcher that a write commands and the switcher reports back: the
     * write is answered when the switcher took the command.
     * @param {string} id
     * @param {Omit<import('patchbay-hub/connection').ParameterSpec, 'access' | 'forward'>} spec
     * @param {(value: import('patchbay-hub/connection').Value) => Promise<unknown>} command
     */
    const commanded = (id, spec, command) =>
      parameter(id, {
        ...spec,
        access: 'read-write',
        ownedHere: true,
        forward: (value, _o, answered) => link.command(() => taken(() => command(value)), answered),
      });
    /** @param {string} id @param {string} label @param {() => Promise<unknown>} command */
    const trigger = (id, label, command) =>
      parameter(id, {
        type: 'T',
        access: 'write-only',
        meta: { label },
        ownedHere: true,
        forward: (_v, _o, answered) => link.command(() => taken(command), answered),
      });
    /** @param {string} id @param {Omit<import('patchbay-hub/connection').ParameterSpec, 'access'>} spec */
    const readOnly = (id, spec) => parameter(id, { ...spec, access: 'read-only' });

    const model = readOnly('device/model', { type: 'S', meta: { label: 'Model' } });
    const running = readOnly('macro/running', { type: 'I', meta: { label: 'Macro running' } });
    trigger('macro/stop', 'Stop macro', () => atem.macroStop());

    /** @type {Map<number, Record<'program' | 'preview' | 'style' | 'rate' | 'running' | 'position', OwnedParameter>>} */
    const mixEffects = new Map();
    /** An M/E's parameters, defined once. @param {number} me the library's index, from 0 */
    const mixEffectParameters = (me) => {
      const known = mixEffects.get(me);
      if (known) return known;
      const n = me + 1;
      trigger(`me/${n}/cut`, `M/E ${n} cut`, () => atem.cut(me));
      trigger(`me/${n}/auto`, `M/E ${n} auto`, () => atem.autoTransition(me));
      const made = {
        program: commanded(`me/${n}/program`, { type: 'I', meta: { label: `M/E ${n} program` } }, (v) =>
          atem.changeProgramInput(Number(v), me),
        ),
        preview: commanded(`me/${n}/preview`, { type: 'I', meta: { label: `M/E ${n} preview` } }, (v) =>
          atem.changePreviewInput(Number(v), me),
        ),
        style: commanded(
          `me/${n}/transition/style`,
          { type: 'S', meta: { label: `M/E ${n} next transition`, choices: STYLES.map(({ value, label }) => ({ value, label })) } },
          (v) => atem.setTransitionStyle({ nextStyle: STYLES.find((s) => s.value === v)?.style ?? Enums.TransitionStyle.MIX }, me),
        ),
        rate: commanded(
          `me/${n}/transition/rate`,
          { type: 'I', meta: { label: `M/E ${n} mix rate`, unit: 'frames', minimum: 1, maximum: 250 } },
          (v) => atem.setMixTransitionSettings({ rate: Number(v) }, me),
        ),
        running: readOnly(`me/${n}/transition/running`, { type: 'B', meta: { label: `M/E ${n} in transition` } }),
        position: readOnly(`me/${n}/transition/position`, {
          type: 'F',
          meta: { label: `M/E ${n} transition position`, minimum: 0, maximum: 1 },
        }),
      };
      mixEffects.set(me, made);
      return made;
    };

    /**
     * What the switcher says of an M/E: the part a state path names (`programInput`,
     * `transitionPosition` …), or all of it.
     * @param {AtemState} state @param {number} me from 0 @param {string} [part]
     */
    const mixEffect = (state, me, part) => {
      const at = state.video.mixEffects[me];
      if (!at) return;
      const { program, preview, style, rate, running, position } = mixEffectParameters(me);
      if (!part || part === 'programInput') program.report(at.programInput);
      if (!part || part === 'previewInput') preview.report(at.previewInput);
      if (!part || part === 'transitionProperties')
        style.report(STYLES.find((s) => s.style === at.transitionProperties.nextStyle)?.value ?? 'mix');
      if ((!part || part === 'transitionSettings') && at.transitionSettings.mix) rate.report(at.transitionSettings.mix.rate);
      if (!part || part === 'transitionPosition') {
        running.report(at.transitionPosition.inTransition);
        position.report(at.transitionPosition.handlePosition / 10_000);
      }
    };

    /** @param {AtemState} state @param {number} aux from 0 */
    const auxOutput = (state, aux) => {
      const at = state.video.auxilliaries[aux];
      if (at === undefined) return;
      commanded(`aux/${aux + 1}/source`, { type: 'I', meta: { label: `Aux ${aux + 1}` } }, (v) => atem.setAuxSource(Number(v), aux)).report(
        at,
      );
    };

    /** @param {AtemState} state @param {number} key from 0 */
    const keyer = (state, key) => {
      const at = state.video.downstreamKeyers[key];
      if (!at) return;
      const n = key + 1;
      commanded(`dsk/${n}/onAir`, { type: 'B', meta: { label: `DSK ${n} on air` } }, (v) =>
        atem.setDownstreamKeyOnAir(v === true, key),
      ).report(at.onAir);
      commanded(`dsk/${n}/tie`, { type: 'B', meta: { label: `DSK ${n} tie` } }, (v) => atem.setDownstreamKeyTie(v === true, key)).report(
        at.properties?.tie ?? false,
      );
      trigger(`dsk/${n}/auto`, `DSK ${n} auto`, () => atem.autoDownstreamKey(key));
    };

    /** @param {AtemState} state */
    const macros = (state) => {
      state.macro.macroProperties.forEach((macro, index) => {
        if (!macro?.isUsed) return;
        const label = `Macro ${index + 1}: ${macro.name}`;
        const run = trigger(`macro/${index + 1}/run`, label, () => atem.macroRun(index));
        if (run.meta?.label !== label) run.describe({ label });
      });
      const player = state.macro.macroPlayer;
      running.report(player.isRunning ? player.macroIndex + 1 : 0);
    };

    /** Inputs by name, as the choices of every source parameter; tally of the external ones. @param {AtemState} state */
    const inputs = (state) => {
      /** @type {Choices} */
      const all = [];
      for (const input of Object.values(state.inputs)) {
        if (!input) continue;
        all.push({ value: input.inputId, label: `${input.inputId}: ${input.longName}` });
        if (input.internalPortType === Enums.InternalPortType.External) {
          readOnly(`input/${input.inputId}/name`, { type: 'S', meta: { label: `Input ${input.inputId} name` } }).report(input.longName);
        }
      }
      for (const [id, owned] of defined) {
        if (SOURCES.test(id)) owned.describe({ ...owned.meta, choices: all });
      }
    };

    /** @type {Map<number, { program: OwnedParameter, preview: OwnedParameter }>} */
    const tallies = new Map();
    /** Tally as a person at the multiviewer sees it: what M/E 1 puts on air and on preview. @param {AtemState} state */
    const tally = (state) => {
      for (const input of Object.values(state.inputs)) {
        if (!input || input.internalPortType !== Enums.InternalPortType.External || tallies.has(input.inputId)) continue;
        const id = input.inputId;
        tallies.set(id, {
          program: readOnly(`input/${id}/tally/program`, { type: 'B', meta: { label: `Input ${id} on air` } }),
          preview: readOnly(`input/${id}/tally/preview`, { type: 'B', meta: { label: `Input ${id} on preview` } }),
        });
      }
      const onAir = atem.listVisibleInputs('program', 0);
      const onPreview = atem.listVisibleInputs('preview', 0);
      for (const [id, { program, preview }] of tallies) {
        program.report(onAir.includes(id));
        preview.report(onPreview.includes(id));
      }
    };

    /** The whole state, on every connect. */
    const refreshAll = () => {
      const state = atem.state;
      if (!state) return;
      model.report(state.info.productIdentifier ?? '');
      state.video.mixEffects.forEach((_m, me) => mixEffect(state, me));
      state.video.auxilliaries.forEach((_a, aux) => auxOutput(state, aux));
      state.video.downstreamKeyers.forEach((_k, key) => keyer(state, key));
      macros(state);
      inputs(state);
      tally(state);
    };

    /**
     * What changed, by the library's state paths (`video.mixEffects.0.programInput`,
     * `inputs.3`, `macro.macroPlayer` …): only the parts they name are read again.
     * @param {string[]} paths
     */
    const refresh = (paths) => {
      const state = atem.state;
      if (!state) return;
      let names = false;
      let onAir = false;
      for (const path of paths) {
        const [head, kind, index, part] = path.split('.');
        if (head === 'inputs') names = true;
        else if (head === 'macro') macros(state);
        else if (head === 'video' && kind === 'mixEffects') {
          mixEffect(state, Number(index), part);
          onAir = true;
        } else if (head === 'video' && kind === 'auxilliaries') auxOutput(state, Number(index));
        else if (head === 'video' && kind === 'downstreamKeyers') {
          keyer(state, Number(index));
          onAir = true;
        }
      }
      if (names) inputs(state);
      if (onAir || names) tally(state);
    };

    return {
      start: () => link.start(),
      stop: () => link.stop(),
      details: () => ({ host, port }),
    };
  },
});
