/**
 * `scenes`: named snapshots of other connections' parameters, stored and recalled by an
 * operator (R-Y1). A scene's `members` are address patterns (`studio/#`, `+/gain`); a store
 * keeps the current value of every member that is a read-write state parameter with a known
 * value, a recall writes those values back, all in one event-loop turn, through each
 * parameter's `set` as a client's write would go (rules fire, devices receive).
 *
 * Parameters:
 *   <id>/store    T   write-only   keeps the current values of the scene's members
 *   <id>/recall   T   write-only   writes the kept values back, in one turn
 *   <id>/dirty    B   read-only    true while a kept member that exists differs from the scene
 *   <id>/members  I   read-only    how many members the stored scene holds; 0 before a store
 *   <id>/report   S   read-only    what the last store or recall did: how many members, which
 *                                  were gone, refused or over the bound
 *
 * Stored scenes are records of the connection (`scene/<id>`): in the state folder when the
 * hub has one, so they survive restarts and travel with `patchbay state … export`.
 */
import { Type } from '@sinclair/typebox';
import { segmentPattern } from '../../core/address.ts';
import { AddressPatterns } from '../../core/address-pattern.ts';
import { ok } from '../../core/errors.ts';
import type { Issue } from '../../core/issue.ts';
import type { OwnedParameter, Parameter } from '../../core/parameter.ts';
import type { Json, Value } from '../../core/value.ts';
import { checked, defineConnectionType } from '../connection.ts';
import { withDefault } from '../defaults.ts';

const settings = Type.Object({
  scenes: withDefault(
    Type.Array(
      Type.Object(
        {
          id: Type.String({
            pattern: segmentPattern,
            expected: 'an id of 1–128 characters A-Z a-z 0-9 _ - .',
            description: 'Names the scene: its parameters are <id>/store, <id>/recall, <id>/dirty, <id>/members and <id>/report.',
          }),
          members: Type.Array(Type.String({ minLength: 1 }), {
            minItems: 1,
            description:
              'Address patterns of the parameters the scene holds: levels split at "/", "+" for one level, a final "#" for the rest ("studio/#", "+/gain").',
          }),
          description: Type.Optional(Type.String({ description: 'Free text for people.' })),
        },
        { additionalProperties: false },
      ),
      { description: 'The scenes, each with its own store, recall, dirty, members and report parameters.' },
    ),
    [],
  ),
  maxMembers: withDefault(
    Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      description:
        'The most members one scene may keep. A store that would keep more keeps nothing, says so in <id>/report and leaves the connection degraded until a store fits.',
    }),
    10_000,
  ),
});

interface SceneSettings {
  readonly id: string;
  readonly members: readonly string[];
  readonly patterns: AddressPatterns;
}

/** A stored scene as kept in the connection's records (`scene/<id>`): plain JSON. */
interface StoredScene {
  /** When it was stored, in scheduler time (milliseconds since the epoch on a real clock). */
  readonly at: number;
  /** The kept values by address, in the order the recall writes them. */
  readonly values: Readonly<Record<string, Value>>;
}

const isValue = (value: unknown): value is Value =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/** A record read back (after a restart, or from an import) is checked: a bad one is no scene. */
function storedSceneOf(record: Json | undefined): StoredScene | undefined {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return undefined;
  const { at, values } = record as Record<string, Json>;
  if (typeof at !== 'number' || typeof values !== 'object' || values === null || Array.isArray(values)) return undefined;
  const kept: Record<string, Value> = {};
  for (const [address, value] of Object.entries(values)) if (isValue(value)) kept[address] = value;
  return { at, values: kept };
}

/** Member patterns compile as address patterns; scene ids are distinct. */
function parseScenes(scenes: readonly { id: string; members: string[] }[]): { issues: Issue[]; parsed: SceneSettings[] } {
  const issues: Issue[] = [];
  const parsed: SceneSettings[] = [];
  const seen = new Set<string>();
  scenes.forEach(({ id, members }, index) => {
    if (seen.has(id)) issues.push({ path: ['scenes', index, 'id'], message: `"${id}" is defined twice` });
    seen.add(id);
    const patterns = AddressPatterns.compile(members);
    if (!patterns.ok) issues.push({ path: ['scenes', index, 'members'], message: patterns.error.message });
    else parsed.push({ id, members, patterns: patterns.value });
  });
  return { issues, parsed };
}

const TAKEN = ok(true);

/** How many addresses a report names one by one before it says how many more. */
const NAMED = 10;
const listed = (addresses: readonly string[]) =>
  addresses.length <= NAMED ? addresses.join(', ') : `${addresses.slice(0, NAMED).join(', ')} and ${addresses.length - NAMED} more`;

export const scenes = defineConnectionType({
  type: 'scenes',
  summary: 'Named scenes of other parameters that an operator stores and recalls in one go.',
  settings,
  parse: ({ scenes: written, maxMembers }) => {
    const { issues, parsed } = parseScenes(written);
    return checked(issues, { scenes: parsed, maxMembers });
  },
  create(context, { scenes: sceneList, maxMembers }) {
    const running: Scene[] = [];
    const overBound = new Set<string>();
    const showBound = () => {
      const [first] = overBound;
      if (first === undefined) context.setStatus('ok');
      else
        context.setStatus(
          'degraded',
          `scene ${first}: its members match more than maxMembers (${maxMembers}) parameters; nothing was stored`,
          'PB_OVER_LIMIT',
        );
    };

    /**
     * One scene while the connection runs. Dirty is a count of kept members that exist and
     * differ, kept up to date by following each kept address (members come and go).
     */
    class Scene {
      private stored: StoredScene | undefined;
      private readonly following: (() => void)[] = [];
      private readonly differing = new Set<string>();
      /** Counts recalls, so that late device answers are reported only for the latest one. */
      private recallNumber = 0;
      private readonly dirty: OwnedParameter;
      private readonly size: OwnedParameter;
      private readonly report: OwnedParameter;

      constructor(private readonly settings: SceneSettings) {
        const { id } = settings;
        this.command(`${id}/store`, () => this.store());
        this.command(`${id}/recall`, () => this.recall());
        this.dirty = context.define(`${id}/dirty`, { type: 'B', access: 'read-only', initial: false });
        this.size = context.define(`${id}/members`, { type: 'I', access: 'read-only', initial: 0 });
        this.report = context.define(`${id}/report`, { type: 'S', access: 'read-only', initial: 'not stored yet' });
        this.stored = storedSceneOf(context.records.get(this.key));
        if (this.stored) {
          this.size.report(Object.keys(this.stored.values).length);
          this.report.report(`${Object.keys(this.stored.values).length} members stored at ${new Date(this.stored.at).toISOString()}`);
          this.follow();
        }
      }

      /**
       * A trigger that runs `work` and fires for whoever listens. Its writer is answered once
       * what the work stored is as safe as the hub promises (R-S4): an HTTP client that has
       * its `OK` for a store knows the scene survives the hub being killed. A trigger's write
       * alone would be answered at once, so the trigger answers itself (as a device's
       * parameter does when the device confirms).
       */
      private command(id: string, work: () => void): void {
        const trigger: OwnedParameter = context.define(id, {
          type: 'T',
          access: 'write-only',
          device: true,
          forward: (_value, origin, answered) => {
            work();
            trigger.report(true, origin);
            if (answered) {
              if (context.settled) context.settled(() => answered(TAKEN));
              else answered(TAKEN);
            }
            return TAKEN;
          },
        });
      }

      private get key(): string {
        return `scene/${this.settings.id}`;
      }

      private get origin(): string {
        return `scene ${context.id}/${this.settings.id}`;
      }

      /** The parameters the scene would keep now: read-write state parameters of other connections with a known value. */
      private members(): Parameter[] {
        const { patterns, members } = this.settings;
        // A pattern whose first level names a connection needs only that connection's
        // parameters; one that starts with + or # walks the whole graph.
        const firstLevels = members.map((pattern) => pattern.split('/')[0] as string);
        const candidates = firstLevels.some((level) => level === '+' || level === '#')
          ? context.graph.all()
          : [...new Set(firstLevels)].flatMap((connectionId) => context.graph.byPrefix(`${connectionId}/`));
        return candidates.filter(
          (p) =>
            p.connectionId !== context.id &&
            !p.id.startsWith('_') &&
            p.type !== 'T' &&
            p.access === 'read-write' &&
            p.value !== undefined &&
            patterns.matches(p.address),
        );
      }

      store(): void {
        const id = this.settings.id;
        const members = this.members();
        if (members.length > maxMembers) {
          const reason = `store refused: the members match ${members.length} parameters, more than maxMembers (${maxMembers}); the scene kept before stays`;
          context.log.error(`scene ${id}: ${reason}`);
          this.report.report(reason);
          overBound.add(id);
          showBound();
          return;
        }
        if (overBound.delete(id)) showBound();
        const values: Record<string, Value> = {};
        for (const p of members) values[p.address] = p.value as Value;
        this.stored = { at: context.scheduler.now(), values };
        context.records.set(this.key, { at: this.stored.at, values });
        this.size.report(members.length);
        this.report.report(`${members.length} members stored at ${new Date(this.stored.at).toISOString()}`);
        context.log.info(`scene ${id}: ${members.length} members stored`);
        this.follow();
      }

      /**
       * Writes every kept value whose parameter exists and still matches the members, in one
       * synchronous loop: the whole scene lands in this turn. Gone members are skipped and
       * listed; a refused write is listed and the others are written. A recall that a write
       * of this one sets off again (a rule from a member to recall) settles: it writes the
       * values already there, which changes nothing and fires no rule.
       */
      recall(): void {
        const id = this.settings.id;
        const stored = this.stored;
        if (!stored) {
          this.report.report('recall: nothing stored yet; store the scene first');
          return;
        }
        const number = ++this.recallNumber;
        const gone: string[] = [];
        const refused: string[] = [];
        let written = 0;
        const lateRefusals: string[] = [];
        const show = () => {
          const parts = [`${written} of ${Object.keys(stored.values).length} members recalled`];
          if (gone.length) parts.push(`gone: ${listed(gone)}`);
          const allRefused = [...refused, ...lateRefusals];
          if (allRefused.length) parts.push(`refused: ${listed(allRefused)}`);
          this.report.report(parts.join('; '));
        };
        for (const [address, value] of Object.entries(stored.values)) {
          const parameter = context.graph.get(address);
          if (!parameter || !this.settings.patterns.matches(address)) {
            gone.push(address);
            continue;
          }
          const result = parameter.set(value, this.origin, (answer) => {
            if (answer.ok) return;
            context.log.warn(`scene ${id}: ${answer.error.message} (${answer.error.code})`);
            if (number !== this.recallNumber) return;
            lateRefusals.push(`${address} (${answer.error.code})`);
            written--;
            show();
          });
          if (result.ok) written++;
          else {
            refused.push(`${address} (${result.error.code})`);
            context.log.warn(`scene ${id}: ${result.error.message} (${result.error.code})`);
          }
        }
        show();
        context.log.info(`scene ${id}: ${written} members recalled${gone.length ? `, ${gone.length} gone` : ''}`);
      }

      /** Follows every kept address: dirty counts the members that exist and differ from the scene. */
      private follow(): void {
        this.unfollow();
        const stored = this.stored;
        if (!stored) return;
        for (const [address, kept] of Object.entries(stored.values)) {
          let listening: { unsubscribe(): void } | undefined;
          const compare = (value: Value | undefined) => {
            const differs = value !== undefined && value !== kept;
            if (differs === this.differing.has(address)) return;
            if (differs) this.differing.add(address);
            else this.differing.delete(address);
            this.dirty.report(this.differing.size > 0);
          };
          const stop = context.graph.follow(address, (parameter) => {
            listening?.unsubscribe();
            listening = undefined;
            compare(parameter?.value);
            if (parameter) listening = parameter.changes$.subscribe(compare);
          });
          this.following.push(() => {
            stop();
            listening?.unsubscribe();
          });
        }
      }

      private unfollow(): void {
        for (const stop of this.following.splice(0)) stop();
        this.differing.clear();
        this.dirty.report(false);
      }

      close(): void {
        for (const stop of this.following.splice(0)) stop();
      }

      details() {
        return {
          id: this.settings.id,
          members: this.settings.members,
          stored: this.stored ? Object.keys(this.stored.values).length : 0,
          dirty: this.differing.size > 0,
        };
      }
    }

    return {
      start() {
        for (const scene of sceneList) running.push(new Scene(scene));
      },
      details: () => ({ scenes: running.map((scene) => scene.details()) }),
      stop() {
        for (const scene of running.splice(0)) scene.close();
        overBound.clear();
      },
    };
  },
});
