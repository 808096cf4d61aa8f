/**
 * The shapes of the flow editor's requests and answers (R-ED1–ED3), as TypeBox schemas and
 * the types made from them, as `api-shapes.ts` has them for the other routes: the hub's flow
 * editor and its routes are written against these types, `/openapi.json` describes these
 * schemas, and the console's flow tab names the types in JSDoc `@import`s, so that
 * `tsc -p tsconfig.console.json` checks it against them. Like `api-shapes.ts`, it needs
 * nothing of Node.
 */
import { Type } from '@sinclair/typebox';
import { ErrorAnswer, type Shape } from './api-shapes.ts';

/** Where in a flow file's document: its keys and list positions, from the top. */
const FlowPath = Type.Array(Type.Union([Type.String(), Type.Integer({ minimum: 0 })]), { description: 'Where in the flow file.' });

/** A mistake of a flow file, at its path. */
export const FlowIssue = Type.Object({ path: FlowPath, message: Type.String() });
export type FlowIssue = Shape<typeof FlowIssue>;

/** A mistake of a draft, with where it stands in the draft's text (offsets), for a mark. */
export const PlacedIssue = Type.Composite([FlowIssue, Type.Object({ from: Type.Integer(), to: Type.Integer() })]);
export type PlacedIssue = Shape<typeof PlacedIssue>;

const EditPath = Type.Array(Type.Union([Type.String(), Type.Integer({ minimum: 0 })]));

/**
 * A change an editor asks of the flow file's text, at a path of its document: `set` a value
 * (an object's key, added when missing; a list's entry), `add` an entry at the end of the
 * list at `path`, `remove` what is at `path`. A `set` over a value that is there changes only
 * what differs, so the comments inside it stay.
 */
export const FlowEdit = Type.Union([
  Type.Object({ op: Type.Literal('set'), path: EditPath, value: Type.Unknown() }),
  Type.Object({ op: Type.Literal('add'), path: EditPath, value: Type.Unknown() }),
  Type.Object({ op: Type.Literal('remove'), path: EditPath }),
]);
export type FlowEdit = Shape<typeof FlowEdit>;

/** `POST /flow/draft`'s body: the text as the editor has it (secrets hidden), and the edits to make in it. */
export const DraftRequest = Type.Object({ text: Type.String(), edits: Type.Optional(Type.Array(FlowEdit)) });
export type DraftRequest = Shape<typeof DraftRequest>;

/** A text with edits made, not saved, and the mistakes a save of it would be refused for. */
export const Draft = Type.Object({
  text: Type.String(),
  issues: Type.Array(PlacedIssue),
  warnings: Type.Optional(
    Type.Array(PlacedIssue, {
      description:
        'What runs but likely wants attention, as `patchbay validate` warns of it (a port open to every machine): only when there are no mistakes.',
    }),
  ),
  document: Type.Optional(Type.Unknown({ description: 'The parsed document; absent when the text does not parse.' })),
});
export type Draft = Shape<typeof Draft>;

/** One kept version of the flow file. */
export const FlowVersion = Type.Object({
  version: Type.Integer({ minimum: 1 }),
  savedAt: Type.Number({ description: 'Milliseconds since the epoch.' }),
  by: Type.String({ description: 'Who saved it: `token ops from 10.0.0.5`, or `on disk` for the file as a save found it.' }),
  bytes: Type.Integer({ minimum: 0 }),
  etag: Type.String(),
  note: Type.Optional(Type.String({ maxLength: 200, description: "What the save changed, in the editor's words (`X-Patchbay-Note`)." })),
});
export type FlowVersion = Shape<typeof FlowVersion>;

/** A kept version as `GET /flow/history` lists it: whether it is the file's text now, too. */
export const FlowVersionListing = Type.Composite([
  FlowVersion,
  Type.Object({ current: Type.Boolean({ description: "Whether it is the file's text now." }) }),
]);
export type FlowVersionListing = Shape<typeof FlowVersionListing>;

/** A save taken (`PUT /flow`, a restore): written and applied, with the new text's tag and version. */
export const FlowSaved = Type.Object({ ok: Type.Literal(true), etag: Type.String(), version: Type.Integer({ minimum: 1 }) });
export type FlowSaved = Shape<typeof FlowSaved>;

/** What a refused save says besides its code: the mistakes, and the tag of the file now. */
export const saveRefusalFields = {
  issues: Type.Array(FlowIssue, { description: 'With PB_FLOW_INVALID: each mistake at its path.' }),
  etag: Type.String({ description: "With PB_FLOW_CHANGED: the file's tag now." }),
};

/** What a save or a restore answers a JSON client: taken, or refused with its code (and the mistakes, or the tag now). */
export const SaveAnswer = Type.Union([
  FlowSaved,
  Type.Composite([
    ErrorAnswer,
    Type.Object({ issues: Type.Optional(saveRefusalFields.issues), etag: Type.Optional(saveRefusalFields.etag) }),
  ]),
]);
export type SaveAnswer = Shape<typeof SaveAnswer>;

/**
 * Something a studio can add (R-ST2): a connection type built in, a package's type installed
 * beside the flow, or a Companion module in the flow's `modules` folder.
 */
export const CatalogueEntry = Type.Object({
  kind: Type.Union([Type.Literal('built-in'), Type.Literal('package'), Type.Literal('module')]),
  name: Type.String({ description: "What it is called: a module's name, a package's name (and type), a type." }),
  description: Type.String(),
  manufacturer: Type.Optional(Type.String()),
  products: Type.Optional(Type.Array(Type.String())),
  keywords: Type.Optional(Type.Array(Type.String())),
  version: Type.Optional(Type.String()),
  api: Type.Optional(Type.String({ description: "A module's @companion-module/base version." })),
  package: Type.Optional(Type.String({ description: "A package's name on the registry." })),
  listed: Type.Optional(
    Type.Boolean({ description: "Whether the flow's `plugins` names the package already (else adding it names code: a machine edit)." }),
  ),
  boxed: Type.Optional(
    Type.Boolean({
      description:
        'Set for a device package that comes with the hub and is not installed beside the flow yet (R-ST7): `PUT /catalogue/boxed/<package>` installs it (a machine edit).',
    }),
  ),
  installation: Type.Optional(
    Type.String({
      description:
        "For a module of a Bitfocus Companion installation on this machine (R-ST7): that installation's modules folder. Its connection names the module where Companion keeps it, outside the flow's modules folder: a machine edit.",
    }),
  ),
  connection: Type.Object(
    { type: Type.String(), module: Type.Optional(Type.String()) },
    { description: "What a new connection's form starts with: its type, and a module's path relative to the flow file." },
  ),
});
export type CatalogueEntry = Shape<typeof CatalogueEntry>;

/** `GET /catalogue`'s answer. */
export const Catalogue = Type.Object({
  entries: Type.Array(CatalogueEntry),
  partial: Type.Boolean({ description: 'True when a folder held more than the hub lists at once.' }),
  machineEdits: Type.Boolean({ description: 'Whether this hub takes edits that name code from admin logins (--allow-machine-edits).' }),
});
export type Catalogue = Shape<typeof Catalogue>;
