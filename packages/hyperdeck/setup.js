// @ts-check
/**
 * How the deck records (its video and audio inputs, audio codec and channels, file format),
 * and whether it takes remote control: each read on connect, kept by the deck's notifications,
 * and written as a command.
 */
import { Commands } from 'hyperdeck-connection';

/** @param {string[]} values */
const named = (values) => values.map((value) => ({ value, label: value }));

export class Setup {
  #commands;
  #videoInput;
  #audioInput;
  #fileFormat;
  #codec;
  #channels;
  #remote;

  /** @param {import('./commands.js').DeckCommands} commands */
  constructor(commands) {
    this.#commands = commands;
    /** @param {Partial<Commands.ConfigurationCommand>} fields */
    const configure = (fields) => Object.assign(new Commands.ConfigurationCommand(), fields);
    this.#videoInput = commands.setting(
      'config/videoInput',
      { type: 'S', meta: { label: 'Video input', choices: named(['SDI', 'HDMI', 'component', 'composite', 'optical']) } },
      (value) => configure({ videoInput: String(value) }),
    );
    this.#audioInput = commands.setting(
      'config/audioInput',
      { type: 'S', meta: { label: 'Audio input', choices: named(['embedded', 'XLR', 'RCA']) } },
      (value) => configure({ audioInput: String(value) }),
    );
    this.#fileFormat = commands.setting(
      'config/fileFormat',
      { type: 'S', meta: { label: 'File format', description: 'as the deck names it: QuickTimeProRes, H.264High …' } },
      (value) => configure({ fileFormat: String(value) }),
    );
    // AAC is two channels; PCM takes 2 to 16.
    this.#codec = commands.setting(
      'config/audioCodec',
      { type: 'S', meta: { label: 'Audio codec', choices: [...named(['PCM']), { value: 'AAC', label: 'AAC (2 channels)' }] } },
      (value) => configure({ audioCodec: value === 'AAC' ? 'AAC' : 'PCM', audioInputChannels: 2 }),
    );
    this.#channels = commands.setting(
      'config/audioChannels',
      {
        type: 'I',
        meta: {
          label: 'Audio channels',
          description: 'recorded in PCM',
          choices: [2, 4, 8, 16].map((n) => ({ value: n, label: `${n} channels` })),
        },
      },
      (value) => configure({ audioCodec: 'PCM', audioInputChannels: Number(value) }),
    );
    this.#remote = commands.setting(
      'remote',
      { type: 'B', meta: { label: 'Remote control', description: 'whether the deck takes commands from the network' } },
      (value) => new Commands.RemoteCommand(value === true),
    );
  }

  /** What the deck is set to, on connect; a deck that lacks a query keeps the rest. */
  async read() {
    const configuration = await this.#commands.ask('the configuration', new Commands.ConfigurationGetCommand());
    if (configuration) this.report(configuration);
    const remote = await this.#commands.ask('the remote control', new Commands.RemoteGetCommand());
    if (remote) this.remote(remote);
  }

  /** @param {Partial<import('hyperdeck-connection').Commands.ConfigurationCommandResponse>} c what the deck said of its configuration, whole or a change */
  report(c) {
    if (c.videoInput) this.#videoInput.report(c.videoInput);
    if (c.audioInput) this.#audioInput.report(c.audioInput);
    if (c.fileFormat) this.#fileFormat.report(c.fileFormat);
    if (c.audioCodec) this.#codec.report(c.audioCodec);
    if (typeof c.audioInputChannels === 'number' && !Number.isNaN(c.audioInputChannels)) this.#channels.report(c.audioInputChannels);
  }

  /** @param {import('hyperdeck-connection').Commands.RemoteInfoCommandResponse} r */
  remote(r) {
    if (typeof r.enabled === 'boolean') this.#remote.report(r.enabled);
  }
}
