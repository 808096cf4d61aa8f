/**
 * `keyboard`: global hotkeys in, synthetic keystrokes out (R-K1–R-K4), on X11.
 *
 * Parameters (combinations in their normal form, e.g. `ctrl-shift-a`):
 *   input/<combination>    T   read-only    fires when the combination is released, system-wide
 *   output/<combination>   T   write-only   each fire presses and releases the combination
 */
import { Type } from '@sinclair/typebox';
import { checked, defineConnectionType, HubError, type Issue, type OwnedParameter, reasonOf, withDefault } from '../../sdk/index.ts';
import { type Combination, parseCombination } from './combination.ts';
import { keyProcess } from './key-process.ts';

const combinations = (description: string, onMachine: 'keystrokes' | 'key-input') =>
  withDefault(Type.Array(Type.String({ minLength: 1 }), { description, onMachine }), []);

const settings = Type.Object({
  // Keys typed on the machine's desktop, whoever types them: any letter listened to is a key logger.
  inputKeys: combinations('Global hotkeys to listen for, such as ctrl-f1.', 'key-input'),
  // Keystrokes into the machine's desktop session: code run as its user, for all that can type.
  outputKeys: combinations('Combinations the hub may type, such as ctrl-shift-a.', 'keystrokes'),
  whenNoDisplay: withDefault(
    Type.Union([Type.Literal('fail'), Type.Literal('disable')], {
      description: 'Without a usable X display: "fail" (status failed) or "disable" (status disabled, for flows that also run headless).',
    }),
    'fail',
  ),
});

/** Parses every combination of one list, reporting bad names and repeats with their paths. */
function parseList(list: readonly string[], setting: string, issues: Issue[]): Combination[] {
  const parsed = new Map<string, number>(); // normal form → index of its first spelling
  const combinations: Combination[] = [];
  list.forEach((text, index) => {
    const result = parseCombination(text);
    if (!result.ok) return void issues.push({ path: [setting, index], message: result.error.message });
    const earlier = parsed.get(result.value.name);
    if (earlier !== undefined) {
      return void issues.push({
        path: [setting, index],
        message: `"${text}" is the same combination as ${setting}[${earlier}] (${result.value.name})`,
      });
    }
    parsed.set(result.value.name, index);
    combinations.push(result.value);
  });
  return combinations;
}

export const keyboardType = defineConnectionType({
  type: 'keyboard',
  summary: 'Global hotkeys in, synthetic keystrokes out (X11).',
  settings,
  parse({ inputKeys, outputKeys, whenNoDisplay }) {
    const issues: Issue[] = [];
    const inputs = parseList(inputKeys, 'inputKeys', issues);
    const outputs = parseList(outputKeys, 'outputKeys', issues);
    return checked(issues, { inputs, outputs, whenNoDisplay });
  },
  create(context, { inputs, outputs, whenNoDisplay }) {
    let leave: (() => void) | undefined;
    const fired = new Map<string, OwnedParameter>();
    const listening = inputs.length > 0;
    return {
      async start() {
        if (inputs.length + outputs.length === 0) return;
        try {
          leave = await keyProcess.use({
            ...(listening && {
              released: (combination: string) => {
                const input = fired.get(combination);
                context.log.debug(`hotkey ${combination} seen${input ? '' : ' (not one of inputKeys)'}`);
                input?.report(true);
              },
            }),
            lost: (reason) => (reason ? context.setStatus('failed', reason, 'PB_PROCESS_ENDED') : context.setStatus('ok')),
          });
        } catch (error) {
          if (whenNoDisplay === 'fail') throw error;
          context.setStatus('disabled', reasonOf(error), 'PB_NO_DISPLAY');
          return;
        }
        for (const combination of inputs)
          fired.set(combination.name, context.define(`input/${combination.name}`, { type: 'T', access: 'read-only' }));
        for (const combination of outputs) {
          context.define(`output/${combination.name}`, {
            type: 'T',
            access: 'write-only',
            onWrite: () =>
              void keyProcess.tap(combination).then(
                () => context.setStatus('ok'),
                (error: unknown) => {
                  // The key process is away: the status says so already, and that it comes back.
                  if (error instanceof HubError && error.code === 'PB_PROCESS_ENDED') return;
                  context.setStatus('degraded', `cannot type ${combination.name}: ${reasonOf(error)}`, 'PB_NO_DISPLAY');
                },
              ),
          });
        }
        context.log.info(`listening for ${inputs.length} hotkeys, ready to type ${outputs.length} combinations`);
      },
      stop() {
        leave?.();
        leave = undefined;
      },
    };
  },
});
