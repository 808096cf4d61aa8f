/**
 * A module's presets (R-CM7), offered as the bindings they stand for. A Companion preset is
 * a ready-made button: a style, the actions a press runs and the feedbacks that light it.
 * Here one is offered as an action binding at `<category>/<name>` (the one action its press
 * runs) beside a feedback binding at `<category>/<name>/lit` (its first feedback), for the
 * console to add to a connection in a click and `patchbay reference` to list. A preset whose
 * press runs several actions offers its feedback alone, and says so; one that needs
 * Companion's expressions (base 2.x) offers nothing of that part, and says so.
 */
import { parameterIdOf } from '../../sdk/index.ts';
import { fromValues } from './base-2/upgrades.ts';

/** Presets kept of a module at most: the largest modules define some thousands. */
export const MOST_PRESETS = 5000;

export interface Preset {
  /** The module's id of it. */
  readonly id: string;
  readonly name: string;
  readonly category: string;
  /** The parameter id its action is offered at; its feedback's is this and `/lit`. */
  readonly key: string;
  readonly action?: { readonly action: string; readonly options: Readonly<Record<string, unknown>>; readonly label?: string };
  readonly feedback?: {
    readonly feedback: string;
    readonly options: Readonly<Record<string, unknown>>;
    readonly invert: boolean;
    readonly label?: string;
  };
  /** Why a part of it is not offered. */
  readonly note?: string;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, fallback: string) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback);

/** The presets of a `setPresetDefinitions`, as bindings; text presets (headings of a page) are not buttons and are left out. */
export function presetsOf(definitions: readonly Json[]): Preset[] {
  const keys = new Set<string>();
  const presets: Preset[] = [];
  for (const definition of definitions.slice(0, MOST_PRESETS)) {
    if (definition['type'] === 'text' || typeof definition['id'] !== 'string') continue;
    const id = definition['id'];
    const name = text(definition['name'], id);
    const category = text(definition['category'], 'presets');
    const key = freeKey(parameterIdOf([category, name.split('\n')[0] as string]) ?? parameterIdOf(['presets', id]) ?? 'preset', keys);
    const notes: string[] = [];
    // Named as Companion's page of presets shows it: a parameter of its own says which preset.
    const label = `${category}: ${name.split('\n')[0]}`.slice(0, 200);
    const pressed = pressOf(definition, notes);
    const lit = litOf(definition, notes);
    const action = pressed && { ...pressed, label };
    const feedback = lit && { ...lit, label: `${label} (lit)`.slice(0, 200) };
    if (!action && !feedback) continue;
    presets.push({
      id,
      name,
      category,
      key,
      ...(action ? { action } : {}),
      ...(feedback ? { feedback } : {}),
      ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
    });
  }
  return presets;
}

/** The one action the preset's first press runs. */
function pressOf(definition: Json, notes: string[]): Preset['action'] {
  const steps = Array.isArray(definition['steps']) ? definition['steps'] : [];
  // Before base 1.2's steps, a preset had `actions: { down, up }`.
  const first = isObject(steps[0]) ? steps[0] : isObject(definition['actions']) ? definition['actions'] : {};
  const down = (Array.isArray(first['down']) ? first['down'] : []).filter(isObject);
  if (down.length === 0) return undefined;
  if (down.length > 1) {
    notes.push(`its press runs ${down.length} actions, and a parameter runs one: bind each yourself`);
    return undefined;
  }
  const { actionId, options } = down[0] as Json;
  if (typeof actionId !== 'string') return undefined;
  const values = fromValues(options);
  if (values.expression !== undefined) {
    notes.push(`its action's option "${values.expression}" is one of Companion's expressions, which patchbay does not run`);
    return undefined;
  }
  return { action: actionId, options: values.options };
}

/** The preset's first feedback, which lights the button in Companion. */
function litOf(definition: Json, notes: string[]): Preset['feedback'] {
  const first = (Array.isArray(definition['feedbacks']) ? definition['feedbacks'] : []).find(isObject);
  if (!first || typeof first['feedbackId'] !== 'string') return undefined;
  const values = fromValues(first['options']);
  if (values.expression !== undefined) {
    notes.push(`its feedback's option "${values.expression}" is one of Companion's expressions, which patchbay does not run`);
    return undefined;
  }
  const inverted = isObject(first['isInverted']) ? first['isInverted']['value'] : first['isInverted'];
  return { feedback: first['feedbackId'], options: values.options, invert: inverted === true };
}

/** `key`, or `key-2`, `key-3`… when an earlier preset took it. */
function freeKey(key: string, taken: Set<string>): string {
  let free = key;
  for (let n = 2; taken.has(free); n++) free = `${key}-${n}`;
  taken.add(free);
  return free;
}
