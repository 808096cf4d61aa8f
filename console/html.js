// The markup tag of every view: htm's tagged templates bound to preact's `h`, JSX with no build step.
import { h } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);
