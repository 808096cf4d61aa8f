// @ts-check
/**
 * Formatting the disk of the active slot in two steps, as the deck asks: `format/prepare`
 * asks the deck for a token, which `format/confirm` sends back within the time given; until
 * then `format/ready` is true. Nothing is erased by one press alone. Returns what forgets a
 * preparation, for the connection's stop.
 */
import { after, HubError } from 'patchbay-hub/connection';
import { Commands, FilesystemFormat } from 'hyperdeck-connection';

const FILESYSTEMS = Object.values(FilesystemFormat).map((filesystem) => ({ value: filesystem, label: filesystem }));

/**
 * @param {import('./commands.js').DeckCommands} commands
 * @param {import('patchbay-hub/connection').Scheduler} scheduler
 */
export function formatting(commands, scheduler) {
  /** @type {{ token: string, expiry: { unsubscribe(): void } } | undefined} */
  let prepared;
  const ready = commands.readOnly('format/ready', {
    type: 'B',
    meta: { label: 'Format prepared', description: 'until confirmed or its time is up' },
  });
  ready.report(false);
  const forget = () => {
    prepared?.expiry.unsubscribe();
    prepared = undefined;
    ready.report(false);
  };
  commands.parameters.parameter('format/prepare', {
    type: 'S',
    access: 'write-only',
    meta: {
      label: 'Prepare to format the disk',
      arguments: {
        filesystem: { type: 'S', label: 'Filesystem', choices: FILESYSTEMS },
        seconds: { type: 'I', label: 'Time to confirm', unit: 's', minimum: 1, maximum: 600, optional: true },
      },
    },
    ownedHere: true,
    forward: (value, _origin, answered) => {
      const { filesystem, seconds = 10 } = /** @type {{ filesystem: FilesystemFormat, seconds?: number }} */ (JSON.parse(String(value)));
      return commands.command(async () => {
        const { code } = await commands.send('format/prepare', Object.assign(new Commands.FormatCommand(), { filesystem }));
        forget();
        prepared = { token: code, expiry: after(scheduler, seconds * 1000, forget) };
        ready.report(true);
      }, answered);
    },
  });
  commands.parameters.trigger('format/confirm', { label: 'Format the disk (confirm)' }, async () => {
    const token = prepared?.token;
    if (token === undefined) throw new HubError('PB_CONVERSION', 'format/confirm: prepare the format first (format/prepare)');
    forget();
    await commands.send('format/confirm', Object.assign(new Commands.FormatConfirmCommand(), { code: token }));
  });
  return forget;
}
