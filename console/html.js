// The markup tag of every view: htm's tagged templates bound to preact's `h`, JSX with no build step.
import { h } from 'preact';
import htm from 'htm';

/**
 * Bidi controls that reorder the text after them (embeddings, overrides, isolates). A device's
 * or a module's text holding one could read other than it is (a name shown backwards, a value
 * that seems another); shown as a visible mark instead, in every text a view puts on the page.
 */
const REORDERING = /[\u202A-\u202E\u2066-\u2069]/g;

/** `text` with each reordering control as a mark that says which: `⟨U+202E⟩`. @param {string} text */
export const plainText = (text) => text.replace(REORDERING, (control) => `⟨U+${(control.codePointAt(0) ?? 0).toString(16).toUpperCase()}⟩`);

/** @param {import('preact').ComponentChildren} child @returns {import('preact').ComponentChildren} */
const plainChild = (child) => (typeof child === 'string' ? plainText(child) : Array.isArray(child) ? child.map(plainChild) : child);

/**
 * Preact's `h`, its text children made plain.
 * @param {any} type @param {any} props @param {import('preact').ComponentChildren[]} children
 */
const plainH = (type, props, ...children) => h(type, props, ...children.map(plainChild));

export const html = htm.bind(plainH);
