/**
 * An example Companion module, written as a module author writes one on the published
 * @companion-module/base: a studio's house lights, some dimmers (its config), each with a
 * level (a variable), set by an action, lit or not (a feedback), and a preset per dimmer for
 * full and off. Its "device" is its own state, so that the example runs anywhere; a real
 * module would talk to a dimmer rack here.
 */
const { InstanceBase, InstanceStatus, Regex, runEntrypoint } = require('@companion-module/base');

class HouseLights extends InstanceBase {
  async init(config) {
    this.levels = [];
    await this.configUpdated(config);
  }

  async configUpdated(config) {
    this.config = config;
    const count = Math.max(1, Math.min(24, Number(config.dimmers) || 4));
    this.levels = Array.from({ length: count }, (_, at) => this.levels[at] ?? 0);
    const dimmers = this.levels.map((_, at) => ({ id: at + 1, label: `${config.name || 'Dimmer'} ${at + 1}` }));
    this.setVariableDefinitions(this.levels.map((_, at) => ({ variableId: `level_${at + 1}`, name: `Level of ${dimmers[at].label}` })));
    this.setActionDefinitions({
      set_level: {
        name: "Set a dimmer's level",
        options: [
          { type: 'dropdown', id: 'dimmer', label: 'Dimmer', default: 1, choices: dimmers },
          { type: 'number', id: 'level', label: 'Level (%)', default: 100, min: 0, max: 100 },
        ],
        callback: ({ options }) => this.set(Number(options.dimmer), Number(options.level)),
      },
      blackout: {
        name: 'Blackout: every dimmer off',
        options: [],
        callback: () => this.levels.forEach((_, at) => this.set(at + 1, 0)),
      },
    });
    this.setFeedbackDefinitions({
      lit: {
        type: 'boolean',
        name: 'Dimmer lit',
        defaultStyle: { bgcolor: 0xffcc00, color: 0 },
        options: [{ type: 'dropdown', id: 'dimmer', label: 'Dimmer', default: 1, choices: dimmers }],
        callback: ({ options }) => (this.levels[Number(options.dimmer) - 1] ?? 0) > 0,
      },
    });
    const presets = {};
    for (const { id, label } of dimmers) {
      for (const [name, level] of [
        ['full', 100],
        ['off', 0],
      ]) {
        presets[`${name}_${id}`] = {
          type: 'button',
          category: label,
          name,
          style: { text: `${label}\n${name}`, size: 'auto', color: 0xffffff, bgcolor: 0 },
          steps: [{ down: [{ actionId: 'set_level', options: { dimmer: id, level } }], up: [] }],
          // Full lights while the dimmer is on; off, while it is off.
          feedbacks: [{ feedbackId: 'lit', options: { dimmer: id }, isInverted: level === 0, style: { bgcolor: 0xffcc00, color: 0 } }],
        };
      }
    }
    this.setPresetDefinitions(presets);
    this.setVariableValues(Object.fromEntries(this.levels.map((level, at) => [`level_${at + 1}`, level])));
    this.updateStatus(InstanceStatus.Ok);
  }

  set(dimmer, level) {
    if (!(dimmer >= 1 && dimmer <= this.levels.length)) throw new Error(`there is no dimmer ${dimmer}`);
    this.levels[dimmer - 1] = level;
    this.setVariableValues({ [`level_${dimmer}`]: level });
    this.checkFeedbacks('lit');
  }

  getConfigFields() {
    return [
      { type: 'number', id: 'dimmers', label: 'Dimmers', width: 4, default: 4, min: 1, max: 24 },
      { type: 'textinput', id: 'name', label: 'What a dimmer is called', width: 8, default: 'Dimmer', regex: Regex.SOMETHING },
    ];
  }

  async destroy() {}
}

runEntrypoint(HouseLights, []);
