/**
 * What a studio can add over HTTP (R-ST2), for the console's catalogue and any other: `GET
 * /catalogue` lists the types, packages and Companion modules a new connection can be, and
 * `PUT /catalogue/<modules | packages | registry>/…` adds a module's or a package's archive
 * beside the flow file, or installs a package from the registry — code the hub will run, so
 * only on a hub that takes machine edits. Each addition is logged with who made it.
 */
import { Type } from '@sinclair/typebox';
import { HubError } from '../core/errors.ts';
import { Catalogue, CatalogueEntry } from '../core/flow-shapes.ts';
import { MOST_ARCHIVE_BYTES, type StoreView } from '../core/store-view.ts';
import { checkSize } from './body.ts';
import { editorsOnly, forStore, later, who } from './flow-handling.ts';
import { answerLater, readBody } from './handling.ts';
import { ok } from './operation-shapes.ts';
import { JSON_TYPE, sendError, sendOk } from './respond.ts';
import type { Route } from './route.ts';

const catalogue = forStore((res, _req, store, json, _access, context) =>
  later(res, json, context, async () => {
    const listing = await store.catalogue();
    return (res) => sendOk(res, JSON_TYPE, JSON.stringify(listing), [['Cache-Control', 'no-store']]);
  }),
);

/** `PUT /catalogue/<modules | packages>/<file>`: an archive an editor adds to the flow's folder (R-ST2); the answer is what `add` says of it. */
const archiveUpload = (
  kind: 'module' | 'package',
  add: (store: StoreView, name: string, bytes: Uint8Array, by: string) => Promise<unknown>,
) =>
  forStore((res, req, store, json, access, context) => {
    // Refused whatever it holds: answered before its bytes are read (four 120 MiB uploads were read whole to be refused).
    const refused = store.uploadRefusal(kind);
    if (refused) return sendError(res, refused, json, { close: true });
    const name = decodeURIComponent(req.getParameter(0) ?? '');
    const declared = checkSize(Number(req.getHeader('content-length') || 0), MOST_ARCHIVE_BYTES);
    if (!declared.ok) return sendError(res, declared.error, json, { close: true });
    const by = who(res, access);
    readBody(res, MOST_ARCHIVE_BYTES, (body) => {
      if (!body.ok) return answerLater(res, json, context.log, () => sendError(res, body.error, json, { close: true }));
      later(res, json, context, async () => {
        try {
          const added = await add(store, name, body.value, by);
          return (res) => sendOk(res, JSON_TYPE, JSON.stringify(added));
        } catch (error) {
          if (!(error instanceof HubError)) throw error;
          return (res) => sendError(res, error, json);
        }
      });
    });
  });

/** A package installed by name (from the registry, or of those that come with the hub): its types as the catalogue lists them. */
const installByName = (install: (store: StoreView, name: string, by: string) => Promise<readonly CatalogueEntry[]>) =>
  forStore((res, req, store, json, access, context) => {
    const name = decodeURIComponent(req.getParameter(0) ?? '');
    const by = who(res, access);
    later(res, json, context, async () => {
      try {
        const added = await install(store, name, by);
        return (res) => sendOk(res, JSON_TYPE, JSON.stringify(added));
      } catch (error) {
        if (!(error instanceof HubError)) throw error;
        return (res) => sendError(res, error, json);
      }
    });
  });

export const storeRoutes: readonly Route[] = [
  {
    path: '/catalogue',
    get: {
      summary: 'What a studio can add',
      description: `One list of what a new connection can be (R-ST2): the connection types built in, the packages installed beside the flow file (\`node_modules\`, with their \`patchbay\` types; \`listed\` says whether the flow's \`plugins\` names one), and the Companion modules in the flow's \`modules\` folder (folders and \`.tgz\`), each with its manufacturer, products and description as it says them. Nothing of them runs to be listed. ${editorsOnly}`,
      tag: 'flow',
      answers: { 200: ok('The entries.', { [JSON_TYPE]: Catalogue }) },
      errors: ['PB_FORBIDDEN', 'PB_FLOW_READ_ONLY'],
      handle: catalogue,
    },
  },
  {
    path: '/catalogue/modules/:file',
    put: {
      summary: "Add a Companion module's archive",
      description: `The body is a Companion module's \`.tgz\` (as Companion's module store and \`companion-module-build\` give it; at most ${MOST_ARCHIVE_BYTES / 1024 / 1024} MiB), kept as \`modules/<file>\` beside the flow file, where the catalogue lists it and a \`companion-module\` connection may name it (R-ST2): 200 with its catalogue entry. Checked as a start checks it (a readable archive, no path leaving it, no link, bounded) and for a manifest of a base the hub speaks (400 \`PB_BAD_REQUEST\` saying why); an archive of that name is never replaced (400). A module is code the hub will run: only on a hub started with \`--allow-machine-edits\` (else 403 \`PB_FLOW_PROTECTED\`). Nothing of it runs until a connection names it. ${editorsOnly}`,
      tag: 'flow',
      variable: {
        name: 'file',
        description: "The archive's file name in the modules folder: letters, digits, `. _ + -`, ending in `.tgz` or `.tar.gz`.",
        schema: Type.String(),
      },
      body: { 'application/gzip': Type.String({ format: 'binary', description: "The module's .tgz." }) },
      answers: { 200: ok('The module as the catalogue lists it.', { [JSON_TYPE]: CatalogueEntry }) },
      errors: ['PB_FORBIDDEN', 'PB_FLOW_READ_ONLY', 'PB_FLOW_PROTECTED', 'PB_BAD_REQUEST', 'PB_BODY_TOO_LARGE', 'PB_CROSS_ORIGIN'],
      handle: archiveUpload('module', (store, name, bytes, by) => store.addModule(name, bytes, by)),
    },
  },
  {
    path: '/catalogue/packages/:file',
    put: {
      summary: "Add a patchbay package's archive",
      description: `The body is a patchbay package's \`.tgz\` (as \`npm pack\` makes it; at most ${MOST_ARCHIVE_BYTES / 1024 / 1024} MiB), kept as \`packages/<file>\` beside the flow file and installed there with npm (\`npm install --ignore-scripts ./packages/<file>\`; its dependencies from the registry the machine reaches), so that the catalogue lists its types, to be added to the flow's \`plugins\` (R-ST2): 200 with its types as the catalogue lists them. Refused with 400 \`PB_BAD_REQUEST\` when it declares no \`patchbay.types\`, when an archive of that name is there, or when npm fails (what npm said). A package is code the hub will run: only on a hub started with \`--allow-machine-edits\` (else 403 \`PB_FLOW_PROTECTED\`). ${editorsOnly}`,
      tag: 'flow',
      variable: {
        name: 'file',
        description: "The archive's file name in the packages folder: letters, digits, `. _ + -`, ending in `.tgz` or `.tar.gz`.",
        schema: Type.String(),
      },
      body: { 'application/gzip': Type.String({ format: 'binary', description: "The package's .tgz." }) },
      answers: { 200: ok("The package's types as the catalogue lists them.", { [JSON_TYPE]: Type.Array(CatalogueEntry) }) },
      errors: ['PB_FORBIDDEN', 'PB_FLOW_READ_ONLY', 'PB_FLOW_PROTECTED', 'PB_BAD_REQUEST', 'PB_BODY_TOO_LARGE', 'PB_CROSS_ORIGIN'],
      handle: archiveUpload('package', (store, name, bytes, by) => store.addPackage(name, bytes, by)),
    },
  },
  {
    path: '/catalogue/registry/:package',
    put: {
      summary: 'Install a patchbay package from the registry',
      description: `Installs the package named in the path (URL-encoded: \`patchbay-videohub\`, \`patchbay-videohub@^1\`, \`@studio%2Fpatchbay-lights\`) from the registry the machine reaches (npm's own, or the one npm is set to), beside the flow file with npm and its install scripts off, so that the catalogue lists its types, to be added to the flow's \`plugins\` (R-ST2): 200 with its types as the catalogue lists them. The registry's manifest of the version npm would install is read first: 400 \`PB_BAD_REQUEST\` when it declares no \`patchbay.types\` (nothing is installed), when the registry has no such package, or when the path is no registry name (a folder, an archive, a URL, git: upload an archive instead). A package is code the hub will run: only on a hub started with \`--allow-machine-edits\` (else 403 \`PB_FLOW_PROTECTED\`). No body. ${editorsOnly}`,
      tag: 'flow',
      variable: {
        name: 'package',
        description: "The package's name in the registry, and `@` with a version, range or tag when wanted.",
        schema: Type.String(),
      },
      answers: { 200: ok("The package's types as the catalogue lists them.", { [JSON_TYPE]: Type.Array(CatalogueEntry) }) },
      errors: ['PB_FORBIDDEN', 'PB_FLOW_READ_ONLY', 'PB_FLOW_PROTECTED', 'PB_BAD_REQUEST', 'PB_CROSS_ORIGIN'],
      handle: installByName((store, spec, by) => store.addRegistryPackage(spec, by)),
    },
  },
  {
    path: '/catalogue/boxed/:package',
    put: {
      summary: 'Install a device package that comes with the hub',
      description: `Installs one of the device packages the hub brings (\`patchbay-atem\`, \`patchbay-hyperdeck\`, \`patchbay-obs\`, \`patchbay-videohub\`, \`patchbay-sacn\`; the catalogue lists those not installed yet with \`boxed\`) beside the flow file, as an upload of its archive is (R-ST7): packed from the hub's own \`packages\` folder, kept as \`packages/<file>\` and installed with npm (its dependencies from the registry the machine reaches), so that the catalogue lists its types, to be added to the flow's \`plugins\`: 200 with its types as the catalogue lists them; 400 \`PB_BAD_REQUEST\` for a name the hub does not bring, or when npm fails (what npm said). A package is code the hub will run: only on a hub that takes machine edits (else 403 \`PB_FLOW_PROTECTED\`). No body. ${editorsOnly}`,
      tag: 'flow',
      variable: { name: 'package', description: 'The name of a package that comes with the hub.', schema: Type.String() },
      answers: { 200: ok("The package's types as the catalogue lists them.", { [JSON_TYPE]: Type.Array(CatalogueEntry) }) },
      errors: ['PB_FORBIDDEN', 'PB_FLOW_READ_ONLY', 'PB_FLOW_PROTECTED', 'PB_BAD_REQUEST', 'PB_CROSS_ORIGIN'],
      handle: installByName((store, name, by) => store.addBoxedPackage(name, by)),
    },
  },
];
