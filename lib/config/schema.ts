import { type TObject, type TSchema, Type } from '@sinclair/typebox';
import { connectionIdPattern, parameterIdPattern } from '../core/address.ts';
import type { ConnectionType } from '../connections/connection.ts';
import { pipeSteps } from '../rules/steps/index.ts';

/** Settings every connection accepts (R-L1); those of `isolation` all but the types that serve the hub. */
export const commonSettings = {
  enabled: Type.Optional(Type.Boolean({ default: true, description: 'A disabled connection is not started; its status is `disabled`.' })),
  description: Type.Optional(Type.String({ description: 'Free text for people.' })),
  location: Type.Optional(Type.String({ description: 'Where the equipment is, for people.' })),
  group: Type.Optional(Type.String({ description: 'A group name for dashboards.' })),
  debug: Type.Optional(Type.Boolean({ default: false, description: "Logs this connection's debug lines." })),
  persist: Type.Optional(
    Type.Boolean({
      default: true,
      description:
        'Keeps the values of its persistent parameters across restarts (dummy, virtual-core logics, xml-file-output placeholders).',
    }),
  ),
  statusParameters: Type.Optional(
    Type.Boolean({ default: false, description: 'Adds `_status/connected` (B, read-only), true while the connection is working.' }),
  ),
};

/** Where a connection runs (R-PK4): settings of every type but those that serve the hub, which run in its process. */
export const isolationSettings = {
  isolate: Type.Optional(
    Type.Union([Type.Literal('process'), Type.Literal('none')], {
      description:
        'Where the connection runs (R-PK4): "process", a process of its own, so a crash, a hang or a leak costs this connection alone, which restarts with a backoff and keeps its last values meanwhile; "none", the hub\'s process. Default: "process" for a type of a package, "none" for a built-in type. The types that serve the hub (rest-api, mqtt, osc) run in its process.',
    }),
  ),
  maxMemoryMb: Type.Optional(
    Type.Integer({
      minimum: 32,
      maximum: 16384,
      default: 512,
      description:
        'With isolate "process": the memory its process may use, in MB: its JavaScript heap, and its memory as a whole (resident, on Linux) this and 256 MB more for Node itself; past either, the process is stopped and restarted.',
    }),
  ),
  hangMs: Type.Optional(
    Type.Integer({
      minimum: 500,
      maximum: 600000,
      default: 5000,
      description:
        'With isolate "process": how long its process may leave the hub\'s pings unanswered (a blocked event loop) before it is killed and restarted, once it has started (its start may take 60 s).',
    }),
  ),
};
/** The settings besides its own that a connection may have, as the reference lists them. */
export const sharedSettings = { ...commonSettings, ...isolationSettings };
export const commonSettingNames = Object.keys(sharedSettings);

const addressPattern = `^${connectionIdPattern.slice(1, -1)}/${parameterIdPattern.slice(1)}`;
const address = (description: string) =>
  Type.String({ pattern: addressPattern, description, expected: 'an address <connection id>/<parameter id>' });
/** An address whose levels after the connection may be `+` (a rule's source pattern, R-RS1). */
const sourcePattern = (description: string) =>
  Type.String({
    pattern: `^${connectionIdPattern.slice(1, -1)}(/(\\+|[A-Za-z0-9_.-]{1,128}))+$`,
    description,
    expected: 'an address <connection id>/<parameter id>, whose levels may be + (one for any)',
  });
/** An address whose levels may hold `{n}`, the n-th level a rule's pattern matched (R-RS1). */
const filledAddress = (description: string) =>
  Type.String({
    pattern: `^${connectionIdPattern.slice(1, -1)}(/([A-Za-z0-9_.-]|\\{[0-9]+\\}){1,128})+$`,
    description,
    expected: 'an address <connection id>/<parameter id>, whose levels may hold {1}, {2} … (the levels its sources matched)',
  });

/** The rule tree of R-R1–R-R3: a node with `folder` is a folder, anything else a rule. */
const ruleDefinitions = {
  node: {
    type: 'object',
    if: { required: ['folder'] },
    then: { $ref: '#/$defs/folder' },
    else: { if: { required: ['from'] }, then: { $ref: '#/$defs/stateRule' }, else: { $ref: '#/$defs/rule' } },
  },
  folder: Type.Object(
    {
      folder: Type.String({ minLength: 1, description: 'The folder name.' }),
      enabled: Type.Optional(Type.Boolean({ default: true, description: 'A disabled folder disables everything below it.' })),
      rules: Type.Array(Type.Unsafe({ $ref: '#/$defs/node' })),
    },
    { additionalProperties: false },
  ),
  stateRule: Type.Object(
    {
      from: Type.Union(
        [
          sourcePattern('The parameter the rule reads, as `value` in its expression; + levels make a rule of each parameter they match.'),
          Type.Record(
            Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }),
            sourcePattern('A parameter the rule reads, by the name its expression uses.'),
            {
              minProperties: 1,
              keyExpected: 'a name its expression uses: a letter or _, then letters, digits or _',
            },
          ),
        ],
        { description: 'What the rule reads: one address (read as `value`), or addresses by name (`{ prg: "atem/program" }`).' },
      ),
      to: Type.Union([filledAddress('A writable parameter.'), Type.Array(filledAddress('A writable parameter.'), { minItems: 1 })], {
        description: 'Where what the rule says goes: an address, or a list of them.',
      }),
      expr: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 2000,
          description: "What the rule says, over its sources by name and any parameter as $(address): `prg == 1 ? 'red' : 'off'`.",
        }),
      ),
      on: Type.Optional(
        Type.Union([Type.Literal('state'), Type.Literal('change')], {
          default: 'state',
          description:
            '`state`: the destination holds what the rule says, written again when it may differ (R-RS3); `change`: only when a source changes.',
        }),
      ),
      combine: Type.Optional(
        Type.Union([Type.Literal('any'), Type.Literal('all'), Type.Literal('priority'), Type.Literal('last')], {
          description:
            'How the rules that say `combine` the same way join at a destination they share (R-RS4): any (true when one says true: a lamp red for any of its sources), all, priority (the first in the tree that says something other than false, 0 or ""), last (the latest).',
        }),
      ),
      description: Type.Optional(Type.String()),
      enabled: Type.Optional(Type.Boolean({ default: true })),
    },
    { additionalProperties: false },
  ),
  rule: Type.Object(
    {
      source: address('The readable parameter whose changes the rule forwards.'),
      destinations: Type.Array(address('A writable parameter.'), { minItems: 1 }),
      description: Type.Optional(Type.String()),
      enabled: Type.Optional(Type.Boolean({ default: true })),
      pipe: Type.Optional(
        Type.Array(
          Type.Object(Object.fromEntries(Object.values(pipeSteps).map((step) => [step.name, Type.Optional(step.schema)])), {
            minProperties: 1,
            maxProperties: 1,
            additionalProperties: false,
            expected: `a step: an object with one key, one of ${Object.keys(pipeSteps).join(', ')}`,
          }),
          { description: 'Steps applied in order before the write.' },
        ),
      ),
    },
    { additionalProperties: false },
  ),
};

/** The full settings object of one connection type: `type`, the common settings and its own. */
function connectionSchema(type: ConnectionType): TObject {
  return Type.Object(
    { type: Type.Literal(type.type), ...commonSettings, ...(type.servesHub ? {} : isolationSettings), ...type.settings.properties },
    { additionalProperties: false, description: `${type.type}: ${type.summary}` },
  );
}

/**
 * The JSON Schema of a flow file (R-F1), built from the registered connection types. It is
 * what validation runs and what editors get from `patchbay schema`.
 */
export function flowFileSchema(types: readonly ConnectionType[]): TSchema {
  const connection = {
    type: 'object',
    required: ['type'],
    properties: {
      type: {
        enum: types.map((t) => t.type),
        description: `The connection type: ${types.map((t) => `${t.type} (${t.summary})`).join('; ')}`,
      },
    },
    // A refused package's type takes any settings: its connections fail at start with the reason (R-PK3).
    allOf: types.map((t) => ({
      if: { properties: { type: { const: t.type } }, required: ['type'] },
      then: t.refused ? {} : connectionSchema(t),
    })),
  };
  return Type.Object(
    {
      $schema: Type.Optional(Type.String({ description: 'The JSON Schema of this format, for editors.' })),
      connections: Type.Optional(
        Type.Record(Type.String({ pattern: connectionIdPattern }), Type.Unsafe(connection), {
          default: {},
          additionalProperties: false,
          keyExpected: 'connection id: 1–64 characters of a-z, 0-9 and -, starting with a letter or digit',
          description: 'Connections by id.',
        }),
      ),
      rules: Type.Optional(Type.Array(Type.Unsafe({ $ref: '#/$defs/node' }), { default: [], description: 'The rule tree.' })),
      flows: Type.Optional(
        Type.Array(Type.String({ minLength: 1 }), { default: [], description: 'Code flow modules, relative to this file.' }),
      ),
      plugins: Type.Optional(
        Type.Array(Type.String({ minLength: 1 }), {
          default: [],
          description:
            "Packages whose connection types this flow uses: package names, found as Node finds them from this file's folder (npm install them here), or paths relative to this file.",
        }),
      ),
      outputFolder: Type.Optional(
        Type.String({
          onMachine: 'folder',
          description:
            "A folder, relative to this file, whose files the console may name (an xml-file-output's filename): a file name elsewhere can be changed only in this file on the machine. Keep code out of it.",
        }),
      ),
      companionModules: Type.Optional(
        Type.String({
          onMachine: 'folder',
          description:
            'The modules folder of a Bitfocus Companion installation whose modules the catalogue offers, relative to this file, besides those found where Companion keeps them on this machine (R-ST7).',
        }),
      ),
      machineEdits: Type.Optional(
        Type.Boolean({
          default: false,
          description:
            'Whether admin logins may, from the console, install packages and Companion modules on this machine and change what names its code, files and devices (R-ST8), as `--allow-machine-edits` lets them. Held only while the hub serves this machine alone (every bindIp of the connections that serve it on 127.0.0.0/8, ::1 or localhost), and changed only in this file on the machine. The first flow file `npx patchbay` makes sets it.',
        }),
      ),
      durability: Type.Optional(
        Type.Union([Type.Literal('process'), Type.Literal('power')], {
          default: 'process',
          description:
            'How safe an answered write is: "process" survives the hub being killed; "power" is also synced to disk before the answer, and survives a power cut.',
        }),
      ),
    },
    {
      title: 'patchbay flow file',
      additionalProperties: false,
      $defs: ruleDefinitions,
    },
  );
}
