/**
 * The connection-type reference, `docs/reference/connections/`, generated from the schemas
 * the flow file is validated with, so a page cannot say what the code does not do.
 *
 * Each page holds hand-written prose (what the type exposes, examples) beside one generated
 * part between `generatedStart` and `generatedEnd`. `npm run docs` (this module run as a
 * script) rewrites those parts, and `spec/config/reference.spec.ts` fails when a page
 * differs from what `connectionReference` makes. Everything but `writeReference` is pure.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TSchema } from '@sinclair/typebox';
import type { ConnectionType } from '../connections/connection.ts';
import { connectionTypes } from './connection-types.ts';
import { flowFileJsonSchema } from './flow-file.ts';
import { loadPlugins } from './plugins.ts';
import { sharedSettings } from './schema.ts';
import { generatedEnd, generatedOf, generatedStart, withGenerated } from '../core/generated-part.ts';

export { generatedEnd, generatedOf, generatedStart, withGenerated };

/** One page of the reference: where it lives (relative to the reference folder), its title for a new page, and its generated part. */
export interface ReferencePage {
  readonly file: string;
  readonly title: string;
  readonly generated: string;
}

/** One row of a settings table: a setting, or a field of a setting's entries (`timers[].duration`). */
export interface SettingRow {
  readonly name: string;
  readonly type: string;
  readonly default: string;
  readonly allowed: string;
  readonly description: string;
}

/** A JSON Schema node as TypeBox writes it, with the keywords the reference reads. */
interface Node {
  readonly type?: string | readonly string[];
  readonly const?: unknown;
  readonly enum?: readonly unknown[];
  readonly anyOf?: readonly Node[];
  readonly items?: Node;
  readonly properties?: Readonly<Record<string, Node>>;
  readonly required?: readonly string[];
  readonly default?: unknown;
  readonly description?: string;
  readonly expected?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly pattern?: string;
  readonly title?: string;
  readonly additionalProperties?: Node | boolean | undefined;
  readonly examples?: readonly Readonly<Record<string, unknown>>[];
}

const plural: Readonly<Record<string, string>> = {
  string: 'strings',
  integer: 'integers',
  number: 'numbers',
  boolean: 'booleans',
  object: 'objects',
};

/** The type of a node in words: `integer`, `list of strings`, `string or list of strings`. */
export function typeOf(node: Node): string {
  if (node.anyOf) {
    const kinds = [...new Set(node.anyOf.map(typeOf))];
    return kinds.join(' or ');
  }
  if (node.type === 'array') {
    const item = node.items ? typeOf(node.items) : 'value';
    return `list of ${plural[item] ?? `${item} values`}`;
  }
  // A type that may be one of some (`["integer", "string"]`: a number or the text `$(value)`).
  if (typeof node.type === 'object') return node.type.join(' or ');
  return node.type ?? 'value';
}

const code = (value: unknown) => `\`${JSON.stringify(value)}\``;

/** What a value may be, beyond its type: the choices, the range, the length, the pattern. */
export function allowedOf(node: Node): string {
  const parts: string[] = [];
  const choices = node.anyOf?.every((option) => 'const' in option) ? node.anyOf.map((option) => option.const) : node.enum;
  if (choices) parts.push(choices.map(code).join(', '));
  if (node.minimum !== undefined && node.maximum !== undefined) parts.push(`${node.minimum}–${node.maximum}`);
  else if (node.minimum !== undefined) parts.push(`≥ ${node.minimum}`);
  else if (node.maximum !== undefined) parts.push(`≤ ${node.maximum}`);
  if (node.minLength === 1) parts.push('not empty');
  else if (node.minLength !== undefined) parts.push(`at least ${node.minLength} characters`);
  if (node.maxLength !== undefined) parts.push(`at most ${node.maxLength} characters`);
  if (node.minItems !== undefined) parts.push(`at least ${node.minItems} ${node.minItems === 1 ? 'entry' : 'entries'}`);
  if (node.maxItems !== undefined) parts.push(`at most ${node.maxItems} entries`);
  if (node.expected !== undefined) parts.push(node.expected);
  else if (node.pattern !== undefined) parts.push(`matches \`${node.pattern}\``);
  const item = node.items && node.items.type !== 'object' ? allowedOf(node.items) : '';
  if (item) parts.push(`each: ${item}`);
  return parts.join('; ');
}

/**
 * The rows of a settings object, depth first: each setting, then the fields of its entries
 * (`tokens[].name`) or of its object (`hub.id`).
 */
export function settingRows(properties: Readonly<Record<string, Node>>, required: readonly string[] = [], prefix = ''): SettingRow[] {
  return Object.entries(properties).flatMap(([key, node]) => {
    const name = `${prefix}${key}`;
    const row: SettingRow = {
      name,
      type: typeOf(node),
      default: 'default' in node ? code(node.default) : required.includes(key) ? 'required' : '—',
      allowed: allowedOf(node),
      // A field's own name (a module's config field's label), then what it is.
      description: [node.title, node.description].filter(Boolean).join(': '),
    };
    const entries = node.type === 'array' && node.items?.properties ? node.items : undefined;
    if (entries?.properties) return [row, ...settingRows(entries.properties, entries.required, `${name}[].`)];
    if (node.properties) return [row, ...settingRows(node.properties, node.required, `${name}.`)];
    return [row];
  });
}

/** Text for a table cell: pipes escaped, and `<words>` outside code spans kept as text rather than read as HTML. */
export function cell(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith('`') ? part : part.replaceAll('<', '&lt;').replaceAll('>', '&gt;')))
    .join('')
    .replaceAll('|', '\\|');
}

/** A settings table in markdown. */
export function settingsTable(rows: readonly SettingRow[]): string {
  return [
    '| setting | type | default | allowed | description |',
    '|---|---|---|---|---|',
    ...rows.map((row) => `| ${[`\`${row.name}\``, row.type, row.default, row.allowed, row.description].map(cell).join(' | ')} |`),
  ].join('\n');
}

const pageOf = (type: string) => `${type}.md`;

/** The settings every connection accepts: `type`, then the common settings (R-L1). */
export function commonRows(types: readonly ConnectionType[], common: Readonly<Record<string, TSchema>>): SettingRow[] {
  return [
    {
      name: 'type',
      type: 'string',
      default: 'required',
      allowed: types.map((t) => code(t.type)).join(', '),
      description: 'The connection type.',
    },
    ...settingRows(common as Readonly<Record<string, Node>>),
  ];
}

/**
 * The generated part of a type's page. A type of a package says so, and how a studio gets
 * it; `common` links to where the settings every connection takes are described (a page
 * outside patchbay's docs names it instead).
 */
export function typeReference(t: ConnectionType, common?: string): string {
  const from = t.origin
    ? [
        `From the package \`${t.origin.package}\` ${t.origin.version}, not built in: install it beside the hub (\`npm install\` its packed \`.tgz\`, its folder, or \`${t.origin.package}\` where it is published) and name it in the flow's \`plugins\` (\`plugins: ['${t.origin.package}']\`); its connections run in a process of their own.`,
        '',
      ]
    : [];
  return [
    t.summary,
    '',
    ...from,
    common === undefined
      ? `Settings (\`type: '${t.type}'\`), besides the common ones of every connection that patchbay's \`docs/reference/connections/README.md\` lists:`
      : `Settings, besides the [common ones](${common}) (\`type: '${t.type}'\`):`,
    '',
    settingsTable(settingRows(t.settings.properties as Readonly<Record<string, Node>>, t.settings.required)),
    ...parametersOf(t),
    ...codesOf(t),
  ].join('\n');
}

/** The parameters a type makes (R-PK6): a table, when it lists them. */
function parametersOf(t: ConnectionType): string[] {
  if (!t.parameters?.length) return [];
  return [
    '',
    'Parameters (`<connection id>/<id>`):',
    '',
    '| id | type | access | |',
    '| --- | --- | --- | --- |',
    ...t.parameters.map(
      ({ id, type, access, description, unit }) =>
        `| \`${id}\` | ${type} | ${access} | ${cell(description)}${unit ? ` (${cell(unit)})` : ''} |`,
    ),
  ];
}

/** The codes of its own a type's refusals carry (R-PK8), beside the hub's: a table, when it declares any. */
function codesOf(t: ConnectionType): string[] {
  const codes = Object.entries(t.errors ?? {});
  if (codes.length === 0) return [];
  return [
    '',
    "Codes of its own, which its refusals of writes answer with (besides the hub's, in `docs/reference/errors.md`):",
    '',
    '| code | status | meaning |',
    '| --- | --- | --- |',
    ...codes.map(([name, { status, text }]) => `| \`${name}\` | ${status} | ${cell(text)} |`),
  ];
}

/** The reference page of a package's type on its own: `patchbay reference <flow file>`. */
export function referencePage(t: ConnectionType): string {
  return `# \`${t.type}\` — ${t.summary.replace(/\.$/, '')}\n\n${typeReference(t)}\n`;
}

/**
 * The reference page of one connection whose type knows its settings finer than the type's
 * schema (`settingsOf`: a Companion module's config fields, actions, feedbacks and presets as
 * the module declared them when it last ran here): `patchbay reference <flow file>`. A
 * setting that is a map of variants (a module's actions) has a table per variant; a map's
 * examples (a module's presets) are listed as the entries they add.
 */
export function connectionPage(id: string, type: string, settings: Readonly<Record<string, Node>>): string {
  const sections = Object.entries(settings).flatMap(([key, node]) => {
    const variants = typeof node.additionalProperties === 'object' ? node.additionalProperties.anyOf : undefined;
    const body = variants
      ? variants.flatMap((variant) => {
          const { options, ...rest } = variant.properties ?? {};
          const picked = Object.values(rest).find((field) => 'const' in field);
          const heading = `### \`${String(picked?.const)}\`${variant.title && variant.title !== picked?.const ? ` — ${variant.title}` : ''}`;
          const rows = settingRows(options?.properties ?? {}, options?.required);
          return [heading, '', rows.length > 0 ? settingsTable(rows) : 'No options.', ''];
        })
      : node.properties
        ? Object.keys(node.properties).length > 0
          ? [settingsTable(settingRows(node.properties, node.required)), '']
          : []
        : [settingsTable(settingRows({ [key]: node })), ''];
    const examples = (node.examples ?? []).flatMap((example) =>
      Object.entries(example).map(([name, entry]) => `| \`${name}\` | ${cell(`\`${JSON.stringify(entry)}\``)} |`),
    );
    const ready =
      examples.length > 0 ? ['Presets, each an entry ready to add:', '', '| id | entry |', '| --- | --- |', ...examples, ''] : [];
    return [`## \`${key}\``, '', ...(node.description ? [node.description, ''] : []), ...body, ...ready];
  });
  return [`# connection \`${id}\` (\`${type}\`)`, '', 'Its own settings, as its type knows them on this hub:', '', ...sections].join('\n');
}

/** A type's name in a list of types: a type of a package says which. */
const listed = (t: ConnectionType, page: string) =>
  `| [\`${t.type}\`](${page}) | ${cell(t.summary)}${t.origin ? ` From the package \`${t.origin.package}\`.` : ''} |`;

/**
 * Every page of the connection reference, with its generated part, in the order of the
 * registry: the built-in types, then `packaged`, the types of the packages this checkout
 * ships (`packages/`).
 */
export function connectionReference(
  types: readonly ConnectionType[],
  common: Readonly<Record<string, TSchema>>,
  packaged: readonly ConnectionType[] = [],
): ReferencePage[] {
  const all = [...types, ...packaged];
  const index: ReferencePage = {
    file: 'README.md',
    title: 'Connection types',
    generated: [
      '| type | what it is |',
      '|---|---|',
      ...all.map((t) => listed(t, pageOf(t.type))),
      '',
      'Every connection accepts these settings besides its own (R-L1):',
      '',
      settingsTable(commonRows(types, common)),
    ].join('\n'),
  };
  const pages = all.map(
    (t): ReferencePage => ({
      file: pageOf(t.type),
      title: `\`${t.type}\` — ${t.summary.replace(/\.$/, '')}`,
      generated: typeReference(t, 'README.md'),
    }),
  );
  // The README's list of types, so that a new type reaches it with `npm run docs` too.
  const readme: ReferencePage = {
    file: readmeFromReference,
    title: 'patchbay',
    generated: ['| type | what it is |', '|---|---|', ...all.map((t) => listed(t, `docs/reference/connections/${pageOf(t.type)}`))].join(
      '\n',
    ),
  };
  return [index, ...pages, readme];
}

/** The folder of the packages this checkout ships. */
export const packagesFolder = fileURLToPath(new URL('../../packages/', import.meta.url));

/**
 * The types of the packages in `packages/` that a studio would install (the examples of
 * the contributing guide aside), loaded as a flow's `plugins` loads them. Their modules
 * import `patchbay-hub/connection`: run with `--import ./tools/checkout-face.mjs`.
 */
export async function checkoutPackageTypes(): Promise<ConnectionType[]> {
  if (!existsSync(packagesFolder)) return [];
  const entries = readdirSync(packagesFolder)
    .filter((name) => !name.startsWith('example-') && existsSync(join(packagesFolder, name, 'package.json')))
    .sort()
    .map((name) => `./${name}`);
  const loaded = await loadPlugins(entries, packagesFolder, connectionTypes);
  const refused = loaded.refused[0];
  if (refused) throw new Error(`packages/${refused.entry.slice(2)}: ${refused.error.message}`);
  return [...loaded.types];
}

/** The README, as a path from the reference folder: its list of types is generated too. */
export const readmeFromReference = '../../../README.md';

/** Where the reference lives in a checkout. */
export const referenceFolder = fileURLToPath(new URL('../../docs/reference/connections/', import.meta.url));

/** The schema editors read, beside the flow files. */
export const schemaFile = fileURLToPath(new URL('../../flows/flow-file.schema.json', import.meta.url));

/** `npm run docs`: rewrites the generated parts of the pages and the editors' schema; returns the files it changed. */
export async function writeReference(folder = referenceFolder): Promise<string[]> {
  const changed: string[] = [];
  const schema = flowFileJsonSchema();
  if (!existsSync(schemaFile) || readFileSync(schemaFile, 'utf8') !== schema) {
    writeFileSync(schemaFile, schema);
    changed.push(schemaFile);
  }
  for (const part of connectionReference(connectionTypes, sharedSettings, await checkoutPackageTypes())) {
    const file = join(folder, part.file);
    const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    const after = withGenerated(before, part);
    if (after === before) continue;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, after);
    changed.push(file);
  }
  return changed;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const changed = await writeReference();
  for (const file of changed) console.log(`wrote ${relative(process.cwd(), file)}`);
  if (changed.length === 0) console.log('the connection reference is up to date');
}
