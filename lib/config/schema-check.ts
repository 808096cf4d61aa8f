/**
 * Runs the flow-file schema (Ajv) over a flow document and turns what it refuses into one
 * issue per place, each with its JSON path and what was expected there.
 */
import { Ajv, type ErrorObject } from 'ajv';
import type { ConnectionType } from '../connections/connection.ts';
import type { Issue } from '../core/issue.ts';
import { connectionTypes } from './connection-types.ts';
import { asWanted } from './environment.ts';
import { describeExpected } from './expected.ts';
import { flowFileSchema } from './schema.ts';

/** The flow-file schema of the built-in types, built once: to validate with, and to write out for editors. */
export const builtInSchema = flowFileSchema(connectionTypes);
/** The schema's own keywords: what a mistake expects, what a setting names on the machine (machine-edits.ts), when a form shows it (`appliesWhen`), which form edits it (`form`). */
const ownKeywords = ['expected', 'keyExpected', 'onMachine', 'appliesWhen', 'form'];
const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictRequired: false });
ajv.addVocabulary(ownKeywords);
const validateBuiltIn = ajv.compile(builtInSchema);
/** Validators of flows with types of packages, by the types they know: compiled once for a set. */
const validators = new Map<string, typeof validateBuiltIn>();

/**
 * The schema's mistakes in `document`, for a flow whose types are the built-in ones and
 * `extra`. `whole` holds the JSON pointers of the strings that were one whole placeholder:
 * where the schema wants a number or a boolean, they are converted in `document`.
 */
export function checkSchema(document: unknown, extra: readonly ConnectionType[], whole: ReadonlySet<string>): Issue[] {
  return schemaIssues(schemaErrors(validatorFor(extra), document, whole), document);
}

/** The schema validator for a flow whose types are the built-in ones and `extra`. */
function validatorFor(extra: readonly ConnectionType[]): typeof validateBuiltIn {
  if (extra.length === 0) return validateBuiltIn;
  // By the module too: two folders may hold a package of one name and version with other settings.
  const key = extra
    .map(
      ({ type, origin, refused }) =>
        `${type}@${origin?.package ?? ''}@${origin?.version ?? ''}@${origin?.module ?? ''}@${refused ? 'refused' : ''}`,
    )
    .join();
  let validate = validators.get(key);
  if (!validate) {
    validate = new Ajv({ allErrors: true, verbose: true, strict: true, strictRequired: false })
      .addVocabulary(ownKeywords)
      .compile(flowFileSchema([...connectionTypes, ...extra]));
    validators.set(key, validate);
  }
  return validate;
}

/**
 * Runs the schema. A string that was one whole placeholder (`port: '${PORT:-17011}'`) where
 * the schema wants a number or a boolean is converted (in `document`) and the schema runs again.
 */
function schemaErrors(validateSchema: typeof validateBuiltIn, document: unknown, whole: ReadonlySet<string>): readonly ErrorObject[] {
  if (validateSchema(document)) return [];
  let converted = false;
  for (const error of validateSchema.errors ?? []) {
    if (error.keyword !== 'type' || !whole.has(error.instancePath)) continue;
    const wanted = ([] as string[]).concat(error.params['type'] as string | string[]);
    const keys = pathOf(error.instancePath, document);
    const parent = keys.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], document) as Record<
      string | number,
      unknown
    >;
    const key = keys[keys.length - 1] as string | number;
    const value = typeof parent[key] === 'string' ? asWanted(parent[key] as string, wanted) : undefined;
    if (value === undefined) continue;
    parent[key] = value;
    converted = true;
  }
  if (converted && validateSchema(document)) return [];
  return [...(validateSchema.errors ?? [])];
}

/** Turns Ajv's errors into one issue per place, each saying what was expected there. */
function schemaIssues(errors: readonly ErrorObject[], document: unknown): Issue[] {
  const explainedBranches = errors.filter((e) => e.keyword === 'anyOf').map((e) => `${e.schemaPath}/`);
  const byPath = new Map<string, Issue>();
  for (const error of errors) {
    if (error.keyword === 'if' || explainedBranches.some((prefix) => error.schemaPath.startsWith(prefix))) continue;
    const issue = toIssue(error, pathOf(error.instancePath, document));
    const key = JSON.stringify(issue.path);
    if (!byPath.has(key)) byPath.set(key, issue);
  }
  return [...byPath.values()];
}

function toIssue(error: ErrorObject, path: (string | number)[]): Issue {
  const parent = error.parentSchema ?? {};
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const name = String(params['missingProperty']);
      const property = (parent['properties'] as Record<string, Record<string, unknown>> | undefined)?.[name] ?? {};
      return { path: [...path, name], message: `missing; expected ${describeExpected(property)}` };
    }
    case 'additionalProperties': {
      const name = String(params['additionalProperty']);
      if (parent['keyExpected']) return { path: [...path, name], message: `"${name}" is not a valid ${String(parent['keyExpected'])}` };
      const known = Object.keys((parent['properties'] as object | undefined) ?? {});
      return { path: [...path, name], message: `unknown key; expected one of ${known.join(', ')}` };
    }
    default:
      return { path, message: `expected ${describeExpected(parent)}` };
  }
}

/** JSON pointer → path, with array positions as numbers. */
function pathOf(pointer: string, document: unknown): (string | number)[] {
  if (pointer === '') return [];
  const path: (string | number)[] = [];
  let node = document;
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    const index = Array.isArray(node) ? Number(key) : Number.NaN;
    path.push(Number.isInteger(index) ? index : key);
    node = (node as Record<string, unknown> | undefined)?.[key];
  }
  return path;
}
