// A change to the flow file as every view of the console makes one (R-ED1, R-ST4): the hub
// makes the edits in the file's own text (POST /flow/draft), the mistakes in the part being
// edited refuse them, and a save goes on top of the text that was read (If-Match). The flow
// tab drafts and saves in two steps (the operator reviews between); the key designer and the
// deck form save at once. Both read what the hub answered here, in the same words; nothing
// here draws, so a plain spec runs it against a hub.
import { draftOf, readFlow, saveFlow } from './api.js';
import { messageOf, pathText } from './format.js';
/** @import { Draft, FlowEdit, PlacedIssue, SaveAnswer } from '../lib/core/flow-shapes.ts' */
/** @typedef {(string | number)[]} Path */
/** @typedef {{ text: string, error: boolean }} Notice */

/** Whether `path` is `prefix` or below it. @param {readonly (string | number)[]} path @param {readonly (string | number)[]} prefix */
export const under = (path, prefix) => prefix.every((step, i) => path[i] === step);

/** "a mistake", "3 mistakes". @param {number} count */
export const mistakes = (count) => (count === 1 ? 'a mistake' : `${count} mistakes`);

/**
 * What the hub made of `edits` in `text`, for a form that edits the part at `mine`: refused
 * by the mistakes below `mine` (the file's own mistakes elsewhere do not refuse it), the same
 * text (the flow already says that), or the draft with the warnings below `mine`.
 * @param {string} text @param {readonly FlowEdit[]} edits @param {Path} mine
 * @returns {Promise<{ refused: readonly PlacedIssue[] } | { same: true } | { draft: Draft, warned: readonly PlacedIssue[] }>}
 */
export async function drafted(text, edits, mine) {
  const draft = await draftOf(text, edits);
  const refused = draft.issues.filter((issue) => under(issue.path, mine));
  if (refused.length > 0) return { refused };
  if (draft.text === text) return { same: true };
  return { draft, warned: (draft.warnings ?? []).filter((warning) => under(warning.path, mine)) };
}

/** The notice for edits the mistakes at their fields refused. @param {readonly PlacedIssue[]} refused @param {'changed' | 'saved'} what @returns {Notice} */
export const refusedNotice = (refused, what) => ({
  text: `not ${what}: ${refused.map((issue) => issue.message).join('; ')} (shown at the fields)`,
  error: true,
});

/** The notice for a draft made and not saved yet: what `patchbay validate` would warn of in it, said now. @param {string} done @param {readonly PlacedIssue[]} warned @returns {Notice} */
export const draftedNotice = (done, warned) =>
  warned.length > 0
    ? {
        text: `${done}, not saved yet; mind: ${warned.map((warning) => `${pathText(warning.path)}: ${warning.message}`).join('; ')}`,
        error: true,
      }
    : { text: `${done}, not saved yet: the changes are below; save to apply them`, error: false };

/**
 * What a save's answer means for the console: saved as a version; refused because the file
 * changed since it was read (nothing was saved, the edit is kept); refused by the file's
 * mistakes (listed in the text); or refused for another reason, with the hub's code.
 * @param {SaveAnswer} answer
 * @returns {{ saved: number } | { changed: true } | { mistakes: number, code: string } | { refused: string, code: string }}
 */
export function saveOutcome(answer) {
  if (answer.ok) return { saved: answer.version };
  if (answer.code === 'PB_FLOW_CHANGED') return { changed: true };
  if (answer.issues?.length) return { mistakes: answer.issues.length, code: answer.code };
  return { refused: answer.error, code: answer.code };
}

/** A save that did not happen, in words: why, with the hub's code. @param {Exclude<ReturnType<typeof saveOutcome>, { saved: number }>} outcome */
export const unsavedText = (outcome) =>
  'changed' in outcome
    ? 'not saved: the flow file changed since it was read'
    : 'mistakes' in outcome
      ? `not saved: ${mistakes(outcome.mistakes)} (${outcome.code})`
      : `not saved: ${outcome.refused} (${outcome.code})`;

/**
 * The edits `editsOf` gives for the flow as it is now, made and saved at once (the version
 * named `done`): done (saved, or the flow already says that), refused by the mistakes below
 * `mine`, not done (the save refused), or nothing to do (no edits) — with what to tell.
 * @param {(document: any) => FlowEdit[]} editsOf @param {Path} mine @param {string} done
 * @returns {Promise<{ done: boolean, notice?: Notice, refused?: readonly PlacedIssue[] }>}
 */
export async function saveAtOnce(editsOf, mine, done) {
  try {
    const { text, etag } = await readFlow();
    const edits = editsOf((await draftOf(text, [])).document);
    if (edits.length === 0) return { done: false }; // the person changed their mind
    const made = await drafted(text, edits, mine);
    if ('refused' in made) return { done: false, refused: made.refused, notice: refusedNotice(made.refused, 'saved') };
    if ('same' in made) return { done: true, notice: { text: `${done}: the flow already says that`, error: false } };
    const outcome = saveOutcome(await saveFlow(made.draft.text, etag, done));
    if ('saved' in outcome) return { done: true, notice: { text: `${done}: saved and applied, version ${outcome.saved}`, error: false } };
    return { done: false, notice: { text: unsavedText(outcome), error: true } };
  } catch (error) {
    return { done: false, notice: { text: `not saved: ${messageOf(error)}`, error: true } };
  }
}

/**
 * The flow file saved as it is, which the hub applies as a reload (as SIGHUP does): what
 * loads a package installed again beside the running hub (R-PK10). The version is the file's
 * own; `note` says why it was applied again.
 * @param {string} note @returns {Promise<Notice>}
 */
export async function reloadFlow(note) {
  try {
    const { text, etag } = await readFlow();
    const outcome = saveOutcome(await saveFlow(text, etag, note));
    return 'saved' in outcome
      ? { text: `the flow reloaded (version ${outcome.saved}): its packages are loaded as installed`, error: false }
      : { text: unsavedText(outcome).replace('not saved', 'not reloaded'), error: true };
  } catch (error) {
    return { text: `not reloaded: ${messageOf(error)}`, error: true };
  }
}
