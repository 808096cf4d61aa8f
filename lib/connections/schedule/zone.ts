/**
 * Local time in one IANA time zone, with the schedule's rule for daylight-saving changes.
 *
 * A wall time is a local date and time written as if it were UTC: milliseconds since the
 * epoch of "2026-03-29T02:30:00" read as "2026-03-29T02:30:00Z". Instants are real
 * milliseconds since the epoch. `offsetAt` links them: wall = instant + offset.
 *
 * Where a change makes a wall time happen twice (autumn), it stands for its first
 * instant; where a change skips it (spring), it stands for the instant of the change. So
 * every wall time has one instant, and later wall times never have earlier instants: what
 * lets a schedule fire each local time exactly once (R-Z1).
 */

const second = 1000;
const day = 86_400_000;

export class Zone {
  private readonly fields: Intl.DateTimeFormat;

  private constructor(readonly name: string) {
    this.fields = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  }

  /** The zone of this name (an IANA name such as `Europe/Berlin`, or `UTC`), or undefined when this machine does not know it. */
  static named(name: string): Zone | undefined {
    try {
      return new Zone(new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone);
    } catch {
      return undefined;
    }
  }

  /** The machine's own time zone (`TZ`, or the system's setting). */
  static ofMachine(): Zone {
    return Zone.named(new Intl.DateTimeFormat().resolvedOptions().timeZone) ?? (Zone.named('UTC') as Zone);
  }

  /** Milliseconds to add to `instant` to get its wall time. Offsets change on whole seconds, so the milliseconds are left out. */
  offsetAt(instant: number): number {
    const whole = instant - mod(instant, second);
    const part: Record<string, number> = {};
    for (const { type, value } of this.fields.formatToParts(whole)) part[type] = Number(value);
    const wall = Date.UTC(
      part['year'] ?? 0,
      (part['month'] ?? 1) - 1,
      part['day'] ?? 1,
      part['hour'] ?? 0,
      part['minute'] ?? 0,
      part['second'] ?? 0,
    );
    return wall - whole;
  }

  wallOf(instant: number): number {
    return instant + this.offsetAt(instant);
  }

  /**
   * The instant a wall time stands for: its only instant, the first of two (a time an
   * autumn change repeats), or the change itself (a time a spring change skips).
   */
  instantOf(wall: number): number {
    // Offsets lie within ±14 h, so a day either side is clear of the instants this wall time can have.
    const before = this.offsetAt(wall - day);
    const after = this.offsetAt(wall + day);
    const candidates = [wall - before, wall - after].filter((instant) => this.offsetAt(instant) === wall - instant);
    if (candidates.length > 0) return Math.min(...candidates);
    // Skipped: the clock jumped over it, at the change between the two candidate instants.
    return this.changeBetween(Math.min(wall - before, wall - after), Math.max(wall - before, wall - after));
  }

  /**
   * The first whole second in (from, to] whose offset differs from `from`'s: the instant of
   * a change known to lie there (a binary search, some twenty formats for a day).
   */
  changeBetween(from: number, to: number): number {
    const offset = this.offsetAt(from);
    let low = Math.floor(from / second); // its offset is `offset`
    let high = Math.ceil(to / second); // its offset is another
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (this.offsetAt(middle * second) === offset) low = middle;
      else high = middle;
    }
    return high * second;
  }

  /**
   * `2026-03-29T03:00:00+02:00`: the instant as local time with its offset, to the second, or
   * to the millisecond for an instant within a second (an `at` written with a fraction).
   */
  iso(instant: number): string {
    const offset = this.offsetAt(instant);
    const local = new Date(instant + offset).toISOString().slice(0, mod(instant, second) === 0 ? 19 : 23);
    const minutes = Math.round(Math.abs(offset) / 60_000);
    return `${local}${offset < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
  }
}

const mod = (n: number, m: number) => ((n % m) + m) % m;
const pad = (n: number) => String(n).padStart(2, '0');
