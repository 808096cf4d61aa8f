// The live values: kept outside preact, so a change updates this map alone, and one render per
// animation frame shows whatever is visible, however many changes arrived meanwhile.
import { useState } from 'preact/hooks';
/** @import { ListedValue, LiveValue } from './shapes.js' */

/** @type {Map<string, ListedValue | LiveValue>} */
export const values = new Map();

let redraw = () => {};
let due = false;
/** Asks for a render at the next animation frame: once, however often it is asked before then. */
export const schedule = () => {
  if (due) return;
  due = true;
  requestAnimationFrame(() => {
    due = false;
    redraw();
  });
};

/** Makes the component that calls it (the console's root) the one `schedule` renders. */
export function useFrames() {
  const [, setFrame] = useState(0);
  redraw = () => setFrame((n) => n + 1);
}
