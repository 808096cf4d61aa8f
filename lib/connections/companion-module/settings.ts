/**
 * The settings of a `companion-module` connection, and what its parse checks beyond their
 * schema: binding ids that are parameter ids, outside `var/`, each bound once.
 */
import {
  type Checked,
  checkParameterId,
  DEFAULT_MAX_MEMORY_MB,
  type Issue,
  MEMORY_MARGIN_MB,
  Type,
  type ValueType,
  valueTypeSetting,
  withDefault,
} from '../../sdk/index.ts';

/** An action bound in the flow: the action, its options, and the parameter's type when given. */
export interface ActionBinding {
  readonly action: string;
  readonly options: Readonly<Record<string, unknown>>;
  readonly type?: ValueType;
  readonly label?: string;
}

/** A feedback bound in the flow: the feedback, its options, inverted or not, and the parameter's type when given. */
export interface FeedbackBinding {
  readonly feedback: string;
  readonly options: Readonly<Record<string, unknown>>;
  readonly invert: boolean;
  readonly type?: ValueType;
  readonly label?: string;
}

const options = withDefault(
  Type.Record(Type.String(), Type.Unknown(), {
    description:
      'Option values by option id; "$(value)" takes the written value, "$(<connection>:<variable>)" a module\'s variable and "$(<connection id>/<parameter id>)" any hub value, in text.',
  }),
  {},
);

const bindingLabel = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "What the parameter is called (R-PK6); the action's or feedback's name by default.",
});

export const settings = Type.Object({
  module: Type.String({
    minLength: 1,
    // Code the hub runs: from the console, only a module in the flow's modules folder (R-ST2).
    onMachine: 'module',
    description:
      "The module: its folder (holding companion/manifest.json) or its .tgz, as Companion's module build makes them; relative to the flow file.",
  }),
  label: Type.Optional(
    Type.String({ description: "The name the module is given (Companion's connection label); the connection id by default." }),
  ),
  config: withDefault(Type.Record(Type.String(), Type.Unknown(), { description: "The module's configuration, by config field id." }), {}),
  secrets: withDefault(
    Type.Record(Type.String(), Type.Unknown(), { description: "Values of the module's secret fields, by field id: never served." }),
    {},
  ),
  actions: withDefault(
    Type.Record(
      Type.String(),
      Type.Object({
        action: Type.String({ minLength: 1, description: "The module's action id." }),
        options,
        type: Type.Optional(valueTypeSetting("The parameter's type; by default the `$(value)` option's, or a trigger.")),
        label: Type.Optional(bindingLabel),
      }),
      { description: 'Write-only parameters, by id, each running an action of the module.' },
    ),
    {},
  ),
  feedbacks: withDefault(
    Type.Record(
      Type.String(),
      Type.Object({
        feedback: Type.String({ minLength: 1, description: "The module's feedback id." }),
        options,
        invert: withDefault(Type.Boolean({ description: "A boolean feedback's value inverted." }), false),
        type: Type.Optional(valueTypeSetting("A value feedback's parameter type (S by default).", ['S', 'I', 'F', 'B'])),
        label: Type.Optional(bindingLabel),
      }),
      { description: 'Read-only parameters, by id, each following a feedback of the module.' },
    ),
    {},
  ),
  timeout: withDefault(
    Type.Integer({ minimum: 100, maximum: 600_000, description: 'Milliseconds the module may take to answer a bound action.' }),
    5000,
  ),
  moduleHangMs: withDefault(
    Type.Integer({
      minimum: 1000,
      maximum: 600_000,
      description:
        "Milliseconds the running module may leave the host's liveness question unanswered (a blocked event loop) before it is killed and started again.",
    }),
    10_000,
  ),
  moduleMaxMemoryMb: withDefault(
    Type.Integer({
      minimum: 32,
      maximum: 16_384,
      description: `The module's JavaScript heap, in MB; its process may hold this and ${MEMORY_MARGIN_MB} MB more for Node itself before it is killed and started again.`,
    }),
    DEFAULT_MAX_MEMORY_MB,
  ),
  initTimeout: withDefault(
    Type.Integer({ minimum: 1000, maximum: 600_000, description: 'Milliseconds the module may take to start (its init).' }),
    30_000,
  ),
  connectTimeoutMs: withDefault(
    Type.Integer({
      minimum: 1000,
      maximum: 600_000,
      description:
        'Milliseconds the module may stay `connecting` (its device not reached) before the connection is degraded and listed in /problems with how long and what the module last said (R-CM9).',
    }),
    10_000,
  ),
});

export type Settings = {
  readonly module: string;
  readonly label?: string;
  readonly config: Readonly<Record<string, unknown>>;
  readonly secrets: Readonly<Record<string, unknown>>;
  readonly actions: Readonly<Record<string, ActionBinding>>;
  readonly feedbacks: Readonly<Record<string, FeedbackBinding>>;
  readonly timeout: number;
  readonly initTimeout: number;
  readonly moduleHangMs: number;
  readonly moduleMaxMemoryMb: number;
  readonly connectTimeoutMs: number;
};

export function parse(written: Settings): Checked<Settings> {
  const issues: Issue[] = [];
  for (const [kind, bindings] of [
    ['actions', written.actions],
    ['feedbacks', written.feedbacks],
  ] as const) {
    for (const id of Object.keys(bindings)) {
      const checked = checkParameterId(id);
      if (!checked.ok) issues.push({ path: [kind, id], message: checked.error.message });
      else if (id.startsWith('var/') || id === 'var')
        issues.push({ path: [kind, id], message: "var/ holds the module's variables: bind under another id" });
    }
  }
  for (const id of Object.keys(written.actions))
    if (Object.hasOwn(written.feedbacks, id)) issues.push({ path: ['feedbacks', id], message: `"${id}" is bound to an action too` });
  if (issues.length > 0) return { ok: false, issues };
  // Defaults inside a record's entries are not filled by the schema: here they are.
  const actions = Object.fromEntries(
    Object.entries(written.actions).map(([id, binding]) => [id, { ...binding, options: binding.options ?? {} }]),
  );
  const feedbacks = Object.fromEntries(
    Object.entries(written.feedbacks).map(([id, binding]) => [
      id,
      { ...binding, options: binding.options ?? {}, invert: binding.invert ?? false },
    ]),
  );
  return { ok: true, value: { ...written, actions, feedbacks } };
}
