/**
 * A base 2.x module's upgrade scripts, run by its host (R-CM7): in 2.0 the host runs them,
 * where a 1.x base ran them itself. The scripts see each option as a value or as one of
 * Companion's expressions (`{ isExpression, value }`); patchbay's bindings hold values, so
 * each goes in marked a value, and a script that makes an option an expression leaves that
 * binding as the flow writes it — patchbay does not evaluate Companion's expression
 * language — with the reason in the answer.
 */

type Json = Record<string, unknown>;

/** A module's upgrade script, as base 2.0 calls it. */
export type Script = (context: { readonly currentConfig: unknown }, props: Json) => Json | null | undefined;
export type Scripts = readonly Script[];

/** An action or feedback instance as the hub sends it to be upgraded. */
export interface Instance {
  readonly id: string;
  readonly controlId: string;
  readonly actionId?: string;
  readonly feedbackId?: string;
  readonly options: Json;
  readonly isInverted?: boolean;
  readonly upgradeIndex: number | null;
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The config and secrets after the scripts past `lastUpgradeIndex` (an index past the last
 * script, as the hub gives for a flow written for this version, runs none).
 */
export function upgradeConfig(scripts: Scripts, message: Json): { config: unknown; secrets: unknown; changed: boolean } {
  let config = message['config'] ?? {};
  let secrets = message['secrets'] ?? {};
  let changed = false;
  const last = typeof message['lastUpgradeIndex'] === 'number' ? message['lastUpgradeIndex'] : -1;
  for (let index = last + 1; index < scripts.length; index++) {
    const result = scripts[index]?.({ currentConfig: config }, { config, secrets, actions: [], feedbacks: [] });
    if (isObject(result?.['updatedConfig'])) {
      config = result['updatedConfig'];
      changed = true;
    }
    if (isObject(result?.['updatedSecrets'])) {
      secrets = result['updatedSecrets'];
      changed = true;
    }
  }
  return { config, secrets, changed };
}

const asValues = (options: Json): Json =>
  Object.fromEntries(Object.entries(options).map(([key, value]) => [key, { isExpression: false, value }]));

/** Options back to values; the first key a script made an expression, if any. */
export function fromValues(options: unknown): { options: Json; expression?: string } {
  const values: Json = {};
  for (const [key, option] of Object.entries(isObject(options) ? options : {})) {
    if (isObject(option) && option['isExpression'] === true) return { options: values, expression: key };
    values[key] = isObject(option) && 'isExpression' in option ? option['value'] : option;
  }
  return { options: values };
}

/**
 * The bindings the scripts change, each from the script after its own `upgradeIndex` (or
 * `defaultUpgradeIndex`), as base 1.13's `upgradeActionsAndFeedbacks` answers; `refused`
 * names the ones left as written and why.
 */
export function upgradeBindings(
  scripts: Scripts,
  message: {
    readonly defaultUpgradeIndex?: number | null;
    readonly actions?: readonly Instance[];
    readonly feedbacks?: readonly Instance[];
  },
): Json {
  const from = (item: Json) => (typeof item['upgradeIndex'] === 'number' ? item['upgradeIndex'] : (message.defaultUpgradeIndex ?? -1));
  const actions = new Map<string, Json>(
    (message.actions ?? []).map((action) => [action.id, { ...action, options: asValues(action.options) }]),
  );
  const feedbacks = new Map<string, Json>(
    (message.feedbacks ?? []).map((feedback) => [
      feedback.id,
      { ...feedback, options: asValues(feedback.options), isInverted: { isExpression: false, value: feedback.isInverted ?? false } },
    ]),
  );
  const changedActions = new Set<string>();
  const changedFeedbacks = new Set<string>();
  for (let index = 0; index < scripts.length; index++) {
    const dueActions = [...actions.values()].filter((action) => from(action) < index);
    const dueFeedbacks = [...feedbacks.values()].filter((feedback) => from(feedback) < index);
    if (dueActions.length === 0 && dueFeedbacks.length === 0) continue;
    const result = scripts[index]?.({ currentConfig: null }, { config: null, secrets: null, actions: dueActions, feedbacks: dueFeedbacks });
    for (const updated of asList(result?.['updatedActions']))
      if (actions.has(String(updated['id']))) {
        actions.set(String(updated['id']), updated);
        changedActions.add(String(updated['id']));
      }
    for (const updated of asList(result?.['updatedFeedbacks']))
      if (feedbacks.has(String(updated['id']))) {
        feedbacks.set(String(updated['id']), updated);
        changedFeedbacks.add(String(updated['id']));
      }
  }
  const refused: string[] = [];
  const answered = (kind: string, all: Map<string, Json>, changed: Set<string>) =>
    [...changed].flatMap((id) => {
      const item = all.get(id) ?? {};
      const { options, expression } = fromValues(item['options']);
      if (expression === undefined) return [{ ...item, options, isInverted: fromValues({ v: item['isInverted'] }).options['v'] }];
      refused.push(
        `${kind} ${id}: the upgrade made its option "${expression}" an expression of Companion's, which patchbay does not evaluate; it runs as the flow writes it`,
      );
      return [];
    });
  return {
    updatedConfig: null,
    updatedSecrets: null,
    updatedActions: answered('action', actions, changedActions),
    updatedFeedbacks: answered('feedback', feedbacks, changedFeedbacks),
    latestUpgradeIndex: scripts.length - 1,
    refused,
  };
}

const asList = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);
