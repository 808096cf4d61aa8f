/**
 * One scene of a `scenes` connection while it runs (R-Y1): its parameters, its stored values
 * (a record of the connection), store, recall, and the dirty flag that follows every kept
 * address.
 */
import {
  type ConnectionContext,
  type ErrorCode,
  HubError,
  ok,
  type OwnedParameter,
  type Parameter,
  type AddressPatterns,
  type Json,
  type Value,
} from '../../sdk/index.ts';

/** A scene as the settings give it, its member patterns compiled. */
export interface SceneSettings {
  readonly id: string;
  readonly members: readonly string[];
  readonly patterns: AddressPatterns;
}

/** The bound on a scene's size, shared by the scenes of a connection: `over` says whether a scene's latest store was over it. */
export interface SceneBound {
  readonly maxMembers: number;
  over(sceneId: string, over: boolean): void;
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

const TAKEN = ok(true);

/** How many addresses a report names one by one before it says how many more. */
const NAMED = 10;
const listed = (addresses: readonly string[]) =>
  addresses.length <= NAMED ? addresses.join(', ') : `${addresses.slice(0, NAMED).join(', ')} and ${addresses.length - NAMED} more`;

/**
 * One scene while the connection runs. Dirty is a count of kept members that exist and
 * differ, kept up to date by following each kept address (members come and go).
 */
export class Scene {
  private stored: StoredScene | undefined;
  private readonly following: (() => void)[] = [];
  private readonly differing = new Set<string>();
  /** Counts recalls, so that late device answers are reported only for the latest one. */
  private recallNumber = 0;
  private readonly dirty: OwnedParameter;
  private readonly size: OwnedParameter;
  private readonly report: OwnedParameter;

  constructor(
    private readonly context: ConnectionContext,
    private readonly settings: SceneSettings,
    private readonly bound: SceneBound,
  ) {
    const { records } = context;
    const { id } = settings;
    this.command(`${id}/store`, () => this.store());
    this.command(`${id}/recall`, () => this.recall());
    this.dirty = this.context.define(`${id}/dirty`, { type: 'B', access: 'read-only', initial: false });
    this.size = this.context.define(`${id}/members`, { type: 'I', access: 'read-only', initial: 0 });
    this.report = this.context.define(`${id}/report`, { type: 'S', access: 'read-only', initial: 'not stored yet' });
    this.stored = storedSceneOf(records.get(this.key));
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
   * parameter does when the device confirms). One that could not be done (a store past
   * `maxMembers`, a recall of a scene never stored) is refused with the reason.
   */
  private command(id: string, work: () => HubError | undefined): void {
    const trigger: OwnedParameter = this.context.define(id, {
      type: 'T',
      access: 'write-only',
      ownedHere: true,
      forward: (_value, origin, answered) => {
        // A store or recall that could not be done is refused to its writer, and fires nothing.
        const refused = work();
        if (refused) return { ok: false, error: refused };
        trigger.report(true, origin);
        if (answered) {
          if (this.context.settled) this.context.settled(() => answered(TAKEN));
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
    return `scene ${this.context.id}/${this.settings.id}`;
  }

  /** The parameters the scene would keep now: read-write state parameters of other connections with a known value. */
  private members(): Parameter[] {
    const { patterns, members } = this.settings;
    // A pattern whose first level names a connection needs only that connection's
    // parameters; one that starts with + or # walks the whole graph.
    const firstLevels = members.map((pattern) => pattern.split('/')[0] as string);
    const candidates = firstLevels.some((level) => level === '+' || level === '#')
      ? this.context.graph.all()
      : [...new Set(firstLevels)].flatMap((connectionId) => this.context.graph.byPrefix(`${connectionId}/`));
    return candidates.filter(
      (p) =>
        p.connectionId !== this.context.id &&
        !p.id.startsWith('_') &&
        p.type !== 'T' &&
        p.access === 'read-write' &&
        p.value !== undefined &&
        patterns.matches(p.address),
    );
  }

  store(): HubError | undefined {
    const id = this.settings.id;
    const members = this.members();
    const { maxMembers } = this.bound;
    if (members.length > maxMembers) {
      const reason = `store refused: the members match ${members.length} parameters, more than maxMembers (${maxMembers}); the scene kept before stays`;
      this.context.log.error(`scene ${id}: ${reason}`);
      this.report.report(reason);
      this.bound.over(id, true);
      return new HubError('PB_OVER_LIMIT', `scene ${id}: ${reason}`);
    }
    this.bound.over(id, false);
    // Nothing to keep (the device its members are on is away, say): a slip in the middle of a
    // show must not wipe the scene kept before.
    if (members.length === 0) {
      const reason = `store refused: none of its members (${this.settings.members.join(', ')}) has a value now; the scene kept before stays`;
      this.report.report(reason);
      return new HubError('PB_SCENE_EMPTY', `scene ${id}: ${reason}`);
    }
    const values: Record<string, Value> = {};
    for (const p of members) values[p.address] = p.value as Value;
    this.stored = { at: this.context.scheduler.now(), values };
    this.context.records.set(this.key, { at: this.stored.at, values });
    this.size.report(members.length);
    this.report.report(`${members.length} members stored at ${new Date(this.stored.at).toISOString()}`);
    this.context.log.info(`scene ${id}: ${members.length} members stored`);
    this.follow();
    return undefined;
  }

  /**
   * Writes every kept value whose parameter exists and still matches the members, in one
   * synchronous loop: the whole scene lands in this turn. Gone members are skipped and
   * listed; a refused write is listed and the others are written. A recall that a write
   * of this one sets off again (a rule from a member to recall) settles: it writes the
   * values already there, which changes nothing and fires no rule.
   */
  recall(): HubError | undefined {
    const id = this.settings.id;
    const stored = this.stored;
    if (!stored) {
      this.report.report('recall: nothing stored yet; store the scene first');
      return new HubError('PB_SCENE_EMPTY', `scene ${id}: nothing stored yet; store the scene first`);
    }
    const number = ++this.recallNumber;
    const gone: string[] = [];
    const refused: string[] = [];
    let written = 0;
    const lateRefusals: string[] = [];
    let firstCode: ErrorCode | undefined;
    const show = () => {
      const parts = [`${written} of ${Object.keys(stored.values).length} members recalled`];
      if (gone.length) parts.push(`gone: ${listed(gone)}`);
      const allRefused = [...refused, ...lateRefusals];
      if (allRefused.length) parts.push(`refused: ${listed(allRefused)}`);
      this.report.report(parts.join('; '));
      // Listed while the scene's last recall stands refused in part (R-RS6); a recall taken whole ends it.
      this.context.problem(
        `scene ${id}`,
        firstCode && allRefused.length ? { code: firstCode, message: `recall: ${parts.join('; ')}` } : undefined,
      );
    };
    for (const [address, value] of Object.entries(stored.values)) {
      const parameter = this.context.graph.get(address);
      if (!parameter || !this.settings.patterns.matches(address)) {
        gone.push(address);
        continue;
      }
      const result = parameter.set(value, this.origin, (answer) => {
        if (answer.ok) return;
        this.context.log.warn(`scene ${id}: ${address} refused: ${answer.error.message} (${answer.error.code})`);
        if (number !== this.recallNumber) return;
        firstCode ??= answer.error.code;
        lateRefusals.push(`${address} (${answer.error.code})`);
        written--;
        show();
      });
      if (result.ok) written++;
      else {
        firstCode ??= result.error.code;
        refused.push(`${address} (${result.error.code})`);
        this.context.log.warn(`scene ${id}: ${address} refused: ${result.error.message} (${result.error.code})`);
      }
    }
    show();
    this.context.log.info(`scene ${id}: ${written} members recalled${gone.length ? `, ${gone.length} gone` : ''}`);
    return undefined;
  }

  /** Follows every kept address: dirty counts the members that exist and differ from the scene. */
  private follow(): void {
    this.unfollow();
    const stored = this.stored;
    if (!stored) return;
    for (const [address, kept] of Object.entries(stored.values)) {
      // A kept address the members no longer match is gone from the scene: it never makes it dirty.
      if (!this.settings.patterns.matches(address)) continue;
      let listening: { unsubscribe(): void } | undefined;
      const compare = (value: Value | undefined) => {
        const differs = value !== undefined && value !== kept;
        if (differs === this.differing.has(address)) return;
        if (differs) this.differing.add(address);
        else this.differing.delete(address);
        this.dirty.report(this.differing.size > 0);
      };
      const stop = this.context.graph.follow(address, (parameter) => {
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
