// @ts-check
/**
 * The kinds of the router's ports, as its protocol names their blocks: inputs (labels),
 * outputs and monitoring outputs (routes of inputs, labels, locks), serial ports (routes of
 * serial ports, labels, locks).
 */

/** @typedef {'inputs' | 'outputs' | 'monitors' | 'serials'} Kind */

/**
 * @type {Record<Kind, { prefix: string, name: string, labels: string, route: string, locks: string, sources: Kind }>}
 */
export const KINDS = {
  inputs: { prefix: 'input', name: 'Input', labels: 'INPUT LABELS', route: '', locks: '', sources: 'inputs' },
  outputs: {
    prefix: 'output',
    name: 'Output',
    labels: 'OUTPUT LABELS',
    route: 'VIDEO OUTPUT ROUTING',
    locks: 'VIDEO OUTPUT LOCKS',
    sources: 'inputs',
  },
  monitors: {
    prefix: 'monitor',
    name: 'Monitor',
    labels: 'MONITORING OUTPUT LABELS',
    route: 'VIDEO MONITORING OUTPUT ROUTING',
    locks: 'MONITORING OUTPUT LOCKS',
    sources: 'inputs',
  },
  serials: {
    prefix: 'serial',
    name: 'Serial',
    labels: 'SERIAL PORT LABELS',
    route: 'SERIAL PORT ROUTING',
    locks: 'SERIAL PORT LOCKS',
    sources: 'serials',
  },
};

/** The kind whose blocks have this title, and what the block holds. @type {Map<string, { kind: Kind, holds: 'label' | 'input' | 'lock' }>} */
export const BLOCKS = new Map();
for (const kind of /** @type {Kind[]} */ (Object.keys(KINDS))) {
  const { labels, route, locks } = KINDS[kind];
  BLOCKS.set(labels, { kind, holds: 'label' });
  if (kind === 'inputs') continue;
  BLOCKS.set(route, { kind, holds: 'input' });
  BLOCKS.set(locks, { kind, holds: 'lock' });
}

/** A lock's letters for a person: what may be written, and L, which the router reports. */
export const lockLetters = [
  { value: 'U', label: 'Unlocked' },
  { value: 'O', label: 'Locked here' },
  { value: 'L', label: 'Locked by another' },
  { value: 'F', label: 'Force an unlock' },
  { value: 'T', label: 'Toggle (lock here, or unlock)' },
  { value: 'FO', label: 'Force, then lock here' },
  { value: 'FT', label: 'Force, then toggle' },
];

/** The longest label written, in bytes: what the router sends back must stay well within the line this type reads. */
export const MAX_LABEL_BYTES = 255;
