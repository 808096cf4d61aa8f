// The catalogue (R-ST2, R-ST7): what a new connection can be, searched as it is typed — the
// Companion modules in the flow's `modules` folder and those a Companion installation on this
// machine keeps, the packages installed beside the flow, the types built in — each with its
// maker, products and description. Choosing one opens its form; a package the flow's
// `plugins` does not name yet, and a module where Companion keeps it, name code: a machine edit.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { installBoxed, installFromRegistry, readCatalogue, uploadArchive } from './api.js';
import { html } from './html.js';
/** @import { Catalogue, CatalogueEntry } from '../lib/core/flow-shapes.ts' */

/** How often an open catalogue is read again. */
const REREAD_MS = 3000;

/** The catalogue's groups, in order: what belongs in each, and its title. @type {readonly [(entry: CatalogueEntry) => boolean, string][]} */
const groups = [
  [(entry) => entry.kind === 'module' && !entry.installation, "Companion modules in this flow's modules folder"],
  [(entry) => entry.installation !== undefined, 'Companion modules installed on this machine (by Companion)'],
  [(entry) => entry.kind === 'package' && !entry.boxed, 'packages installed beside the flow'],
  [(entry) => entry.boxed === true, 'device packages that come with patchbay (installed beside the flow when added)'],
  [(entry) => entry.kind === 'built-in', 'built in'],
];

/** The words an entry is found by. @param {CatalogueEntry} entry */
const wordsOf = (entry) =>
  [
    entry.name,
    entry.description,
    entry.manufacturer,
    ...(entry.products ?? []),
    ...(entry.keywords ?? []),
    entry.connection.type,
    entry.package,
  ]
    .filter(Boolean)
    .join(' ')
    .toLowerCase();

/**
 * @param {{ pick: (entry: CatalogueEntry) => void, list: (entry: CatalogueEntry) => void, cancel: () => void }} props
 */
export function CatalogueView({ pick, list, cancel }) {
  const [catalogue, setCatalogue] = useState(/** @type {Catalogue | undefined} */ (undefined));
  const [failed, setFailed] = useState('');
  const [search, setSearch] = useState('');
  /** The package in the box being installed, and what its install said. */
  const [installing, setInstalling] = useState('');
  const [installSaid, setInstallSaid] = useState(/** @type {{ text: string, error: boolean } | undefined} */ (undefined));
  /** Installs a device package that comes with the hub, then lists what is there. @param {CatalogueEntry} entry */
  const install = async (entry) => {
    const name = entry.package ?? entry.name;
    setInstalling(name);
    setInstallSaid({ text: `installing ${name} beside the flow (npm fetches what it needs)…`, error: false });
    const answer = await installBoxed(name).catch((/** @type {Error} */ error) => ({
      ok: /** @type {const} */ (false),
      error: error.message,
    }));
    setInstalling('');
    if (!answer.ok) {
      setInstallSaid({ text: `${name} not installed: ${answer.error}`, error: true });
      return;
    }
    // Installed to be used: it goes into the flow's plugins at once, as a draft the person saves.
    list({ ...entry, package: name });
  };
  // Read again every few seconds while it is open (R-ST8): a package installed or a module put
  // in the modules folder from elsewhere, or the flow's machineEdits changed, shows without closing it.
  useEffect(() => {
    const read = () =>
      readCatalogue().then(
        (read) => {
          setCatalogue(read);
          setFailed('');
        },
        (error) => setFailed(String(error.message ?? error)),
      );
    void read();
    const again = setInterval(read, REREAD_MS);
    return () => clearInterval(again);
  }, []);
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const found = useMemo(
    () => (catalogue?.entries ?? []).filter((entry) => words.every((word) => wordsOf(entry).includes(word))),
    [catalogue, search],
  );
  return html`<section class="catalogue" data-testid="catalogue">
    <h3>add a device</h3>
    <input type="search" aria-label="search the catalogue" placeholder="a maker, a product, a protocol…" autofocus
      value=${search} onInput=${(/** @type {Event} */ e) => setSearch(/** @type {HTMLInputElement} */ (e.currentTarget).value)} />
    ${failed && html`<p class="field-error" role="alert">the catalogue did not load: ${failed}</p>`}
    ${installSaid && html`<p class=${installSaid.error ? 'field-error' : 'help'} role=${installSaid.error ? 'alert' : 'status'} data-testid="install-said">${installSaid.text}</p>`}
    ${catalogue === undefined && !failed ? html`<p class="empty">reading what this hub can add…</p>` : ''}
    ${catalogue?.partial ? html`<p class="help">a folder holds more than is listed at once: search narrows it</p>` : ''}
    ${groups.map(([belongs, title]) => {
      const entries = found.filter(belongs);
      return entries.length === 0
        ? ''
        : html`<h4>${title}</h4>
          <ul class="catalogue-entries">
            ${entries.map(
              (entry) =>
                html`<${Entry} entry=${entry} machineEdits=${catalogue?.machineEdits ?? false} pick=${pick} list=${list} install=${install}
                  installing=${installing} />`,
            )}
          </ul>`;
    })}
    ${catalogue && found.length === 0 ? html`<p class="empty">nothing matches “${search}”</p>` : ''}
    ${
      catalogue && !catalogue.entries.some((entry) => entry.kind === 'module' && !entry.installation)
        ? html`<p class="help">Companion modules: put a module's folder or its <code>.tgz</code> (from Companion's module store or <code>companion-module-build</code>) in the <code>modules</code> folder beside the flow file, and it is listed here.</p>`
        : ''
    }
    ${
      catalogue &&
      html`<${Uploads} machineEdits=${catalogue.machineEdits ?? false} added=${(/** @type {CatalogueEntry} */ entry) => {
        setSearch(entry.package ?? entry.name);
        readCatalogue().then(setCatalogue, (error) => setFailed(String(error.message ?? error)));
      }} />`
    }
    <div class="form-actions"><button type="button" onClick=${cancel}>cancel</button></div>
  </section>`;
}

const UPLOADS = /** @type {const} */ ([
  ['modules', "a Companion module's .tgz", "from Companion's module store or companion-module-build"],
  ['packages', "a patchbay package's .tgz", 'from npm pack; installed beside the flow'],
]);

/**
 * A Companion module's or a patchbay package's `.tgz` sent to the hub, which keeps it beside
 * the flow (a package installed there); offered only on a hub that takes machine edits: code.
 * @param {{ machineEdits: boolean, added: (entry: CatalogueEntry) => void }} props
 */
function Uploads({ machineEdits, added }) {
  const [said, setSaid] = useState(/** @type {{ text: string, error: boolean } | undefined} */ (undefined));
  const [busy, setBusy] = useState(false);
  const [registryName, setRegistryName] = useState('');
  if (!machineEdits)
    return html`<p class="help">A module's or a package's <code>.tgz</code> is added from here on a hub started with <code>--allow-machine-edits</code> (it is code the hub runs); otherwise put it in the <code>modules</code> folder, or <code>npm install</code> it, on the machine.</p>`;
  /**
   * Sends one addition and says how it went.
   * @param {string} what @param {() => ReturnType<typeof installFromRegistry>} request
   */
  const add = async (what, request) => {
    setBusy(true);
    setSaid({ text: `${what}: sending…`, error: false });
    try {
      const answer = await request();
      if (answer.ok) {
        const [first] = answer.entries;
        setSaid({ text: `${what} added: ${first ? `${first.package ?? first.name} ${first.version ?? ''}` : 'no types'}`, error: false });
        if (first) added(first);
      } else setSaid({ text: `${what} not added: ${answer.error}`, error: true });
      return answer.ok;
    } catch (error) {
      setSaid({ text: `${what} not added: ${/** @type {Error} */ (error).message}`, error: true });
      return false;
    } finally {
      setBusy(false);
    }
  };
  /** @param {'modules' | 'packages'} kind @returns {(e: Event) => Promise<void>} */
  const send = (kind) => async (e) => {
    const input = /** @type {HTMLInputElement} */ (e.currentTarget);
    const file = input.files?.[0];
    if (!file) return;
    await add(file.name, () => uploadArchive(kind, file.name, file));
    input.value = '';
  };
  const install = async (/** @type {Event} */ e) => {
    e.preventDefault();
    const spec = registryName.trim();
    if (spec && (await add(spec, () => installFromRegistry(spec)))) setRegistryName('');
  };
  return html`<div class="uploads">
    ${UPLOADS.map(
      ([kind, what, from]) => html`<div class="field">
        <label for=${`upload-${kind}`}>add ${what} <span class="muted">(${from})</span></label>
        <input id=${`upload-${kind}`} type="file" accept=".tgz,.tar.gz,application/gzip" disabled=${busy} onChange=${send(kind)} />
      </div>`,
    )}
    <form class="field" onSubmit=${install}>
      <label for="registry-package">add a patchbay package from the registry <span class="muted">(by its name, as npm installs it; @ and a version if wanted)</span></label>
      <div class="inline">
        <input id="registry-package" placeholder="patchbay-videohub" spellcheck=${false} disabled=${busy} value=${registryName}
          onInput=${(/** @type {Event} */ e) => setRegistryName(/** @type {HTMLInputElement} */ (e.currentTarget).value)} />
        <button type="submit" disabled=${busy || registryName.trim() === ''}>install</button>
      </div>
    </form>
    ${said && html`<p class=${said.error ? 'field-error' : 'help'} role=${said.error ? 'alert' : 'status'}>${said.text}</p>`}
  </div>`;
}

/**
 * @param {{ entry: CatalogueEntry, machineEdits: boolean, pick: (entry: CatalogueEntry) => void, list: (entry: CatalogueEntry) => void,
 *   install: (entry: CatalogueEntry) => void, installing: string }} props
 */
function Entry({ entry, machineEdits, pick, list, install, installing }) {
  const unlisted = entry.kind === 'package' && !entry.listed && !entry.boxed;
  // A module where Companion keeps it is code outside the flow's modules folder: a machine edit.
  const elsewhere = entry.installation !== undefined;
  const maker = [entry.manufacturer, (entry.products ?? []).join(', ')].filter(Boolean).join(' — ');
  return html`<li class="catalogue-entry" data-kind=${entry.kind}>
    <div>
      <strong>${entry.name}</strong>${entry.version ? html` <span class="muted">${entry.version}</span>` : ''}
      ${maker && html`<div class="maker">${maker}</div>`}
      ${entry.connection.module && html`<div class="help"><code>${entry.connection.module}</code>${entry.api ? ` · base ${entry.api}` : ''}</div>`}
      <div class="help">${entry.description}</div>
      ${
        unlisted
          ? html`<div class="help">not in this flow's <code>plugins</code> yet: a package is code on the hub's machine${
              machineEdits ? '' : ', which only the file on the machine (or a hub started with --allow-machine-edits) may add'
            }</div>`
          : ''
      }
      ${
        elsewhere && !machineEdits
          ? html`<div class="help">where Companion keeps it, outside this flow's modules folder: only the file on the machine (or a hub whose flow allows machine edits) may run it from there; or copy its folder into <code>modules</code></div>`
          : ''
      }
    </div>
    ${
      entry.boxed
        ? html`<button disabled=${!machineEdits || installing !== ''} onClick=${() => install(entry)}>${installing === entry.package ? 'installing…' : 'install'}</button>`
        : unlisted
          ? html`<button disabled=${!machineEdits} onClick=${() => list(entry)}>add to plugins</button>`
          : html`<button class="primary" disabled=${elsewhere && !machineEdits} onClick=${() => pick(entry)}>add</button>`
    }
  </li>`;
}
