/**
 * What `$(name)` in a module's texts names, and its text (R-CM5, R-CM7):
 * `<connection>:<variable>` a module connection's variable (by connection id or, for this
 * one, its `label`), `<connection id>/<parameter id>` any parameter of the hub; `$NA` for
 * none, as Companion shows it. With `isolate: "process"` the connection's process holds its
 * own parameters only: another's read `$NA`.
 */
import type { ConnectionContext, Value } from '../../sdk/index.ts';
import { namesIn } from './option-texts.ts';

/** A hub value as Companion writes a variable into text: `$NA` for none. */
const textOf = (value: Value | undefined): string => (value === undefined ? '$NA' : String(value));

export class VariableNames {
  constructor(
    private readonly context: Pick<ConnectionContext, 'id' | 'graph'>,
    /** The connection's `label`: what Companion's texts call it besides its id. */
    private readonly label: string | undefined,
    /** The text of one of this connection's variables; undefined for none. */
    private readonly variable: (id: string) => string | undefined,
  ) {}

  /** The text of `$(name)`. */
  read(name: string): string {
    const named = this.resolve(name);
    return 'address' in named ? textOf(this.hubValue(named.address)) : (this.variable(named.variable) ?? '$NA');
  }

  /** Whether `$(name)` names one of this connection's variables. */
  own(name: string): boolean {
    return 'variable' in this.resolve(name);
  }

  /** The addresses of the hub values `text` names other than this connection's variables: what to follow. */
  named(text: string): readonly string[] {
    return namesIn(text).flatMap((name) => {
      const named = this.resolve(name);
      return 'address' in named ? [named.address] : [];
    });
  }

  /**
   * A hub value; undefined where the hub's parameters are not (`isolate: "process"`: the
   * connection's process refuses any read of them, and they read `$NA`).
   */
  private hubValue(address: string): Value | undefined {
    try {
      return this.context.graph.get(address)?.value;
    } catch {
      return undefined;
    }
  }

  /** What `$(name)` names: a variable of this connection, or a hub address. */
  private resolve(name: string): { readonly variable: string } | { readonly address: string } {
    const colon = name.indexOf(':');
    if (colon < 0) return { address: name };
    const connection = name.slice(0, colon);
    const id = name.slice(colon + 1);
    return connection === this.context.id || connection === this.label ? { variable: id } : { address: `${connection}/var/${id}` };
  }
}
