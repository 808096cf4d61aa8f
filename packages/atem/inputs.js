// @ts-check
/**
 * The switcher's inputs: their names (each written, too) as the choices of every source, and the tally of the
 * external ones as a person at the multiviewer sees it, through M/E 1.
 */
import { Enums } from 'atem-connection';

/** The parameters whose values are inputs, offered by name. */
const SOURCES =
  /^(me\/\d+\/(program|preview|usk\/\d+\/(fill|key))|aux\/\d+\/source|dsk\/\d+\/(fill|key)|mv\/\d+\/window\/\d+\/source|ssrc\/\d+\/(box\/\d+\/source|art\/fill|art\/key))$/;

/** @typedef {import('patchbay-hub/connection').OwnedParameter} OwnedParameter */
/** @typedef {import('atem-connection').AtemState} AtemState */

export class Inputs {
  #atem;
  #parameters;
  /** @type {Map<number, { program: OwnedParameter, preview: OwnedParameter }>} */
  #tallies = new Map();

  /**
   * @param {Pick<import('atem-connection').Atem, 'listVisibleInputs' | 'setInputSettings'>} atem
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters
   */
  constructor(atem, parameters) {
    this.#atem = atem;
    this.#parameters = parameters;
  }

  /** Inputs by name, as the choices of every source parameter, and each input's names. @param {AtemState} state */
  names(state) {
    /** @type {{ value: number, label: string }[]} */
    const all = [];
    for (const input of Object.values(state.inputs)) {
      if (!input) continue;
      all.push({ value: input.inputId, label: `${input.inputId}: ${input.longName}` });
      this.#named(input);
    }
    this.#parameters.offer(SOURCES, all);
  }

  /** An input's names, each written on its own or both at once. @param {import('atem-connection').InputState.InputChannel} input */
  #named(input) {
    const id = input.inputId;
    /** @param {{ longName?: string, shortName?: string }} names */
    const rename = (names) => this.#atem.setInputSettings(names, id);
    this.#parameters
      .commanded(`input/${id}/name`, { type: 'S', meta: { label: `Input ${id} name` } }, (v) => rename({ longName: String(v) }))
      .report(input.longName);
    this.#parameters
      .commanded(`input/${id}/shortName`, { type: 'S', meta: { label: `Input ${id} short name` } }, (v) => rename({ shortName: String(v) }))
      .report(input.shortName);
    const meta = {
      label: `Input ${id} names`,
      arguments: {
        long: { type: /** @type {const} */ ('S'), label: 'Long name', optional: true },
        short: { type: /** @type {const} */ ('S'), label: 'Short name', optional: true },
      },
    };
    this.#parameters
      .commanded(`input/${id}/names`, { type: 'S', meta }, (v) => {
        const { long, short } = /** @type {{ long?: string, short?: string }} */ (JSON.parse(String(v)));
        return rename({ ...(long !== undefined && { longName: long }), ...(short !== undefined && { shortName: short }) });
      })
      .report(JSON.stringify({ long: input.longName, short: input.shortName }));
  }

  /** Tally as a person at the multiviewer sees it: what M/E 1 puts on air and on preview. @param {AtemState} state */
  tally(state) {
    for (const input of Object.values(state.inputs)) {
      if (!input || input.internalPortType !== Enums.InternalPortType.External || this.#tallies.has(input.inputId)) continue;
      const id = input.inputId;
      this.#tallies.set(id, {
        program: this.#parameters.readOnly(`input/${id}/tally/program`, { type: 'B', meta: { label: `Input ${id} on air` } }),
        preview: this.#parameters.readOnly(`input/${id}/tally/preview`, { type: 'B', meta: { label: `Input ${id} on preview` } }),
      });
    }
    const onAir = this.#atem.listVisibleInputs('program', 0);
    const onPreview = this.#atem.listVisibleInputs('preview', 0);
    for (const [id, { program, preview }] of this.#tallies) {
      program.report(onAir.includes(id));
      preview.report(onPreview.includes(id));
    }
  }
}
