// @ts-check
/**
 * Each source's visibility in each scene (the eye in OBS's Sources list), read on connect
 * and as scenes change, and written as a request to OBS; and a panel's commands for the scene
 * on program or preview, or any: a source (or all of them, or one inside a group) shown,
 * hidden or switched over, and a source moved, scaled or turned.
 */
import { HubError } from 'patchbay-hub/connection';

/** @typedef {import('patchbay-hub/connection').OwnedParameter} OwnedParameter */

export class SceneItems {
  #obs;
  #ask;
  #parameters;
  #segments;
  /** Scene items by scene and OBS's item id: the visibility parameter of each. @type {Map<string, OwnedParameter>} */
  #items = new Map();

  /**
   * @param {import('obs-websocket-js').OBSWebSocket} obs
   * @param {import('./requests.js').Ask} ask
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters
   * @param {import('./segments.js').Segments} segments
   */
  constructor(obs, ask, parameters, segments) {
    this.#obs = obs;
    this.#ask = ask;
    this.#parameters = parameters;
    this.#segments = segments;
    this.#commands(/** @type {import('patchbay-hub/connection').CommandedParameters} */ (parameters));
  }

  /** Reads the sources of each scene and their visibility. @param {string[]} sceneNames */
  read(sceneNames) {
    return Promise.all(sceneNames.map((sceneName) => this.#readScene(sceneName)));
  }

  /**
   * Follows OBS's events of scene items; a read they ask for goes through `again`.
   * @param {(read: () => Promise<unknown>) => void} again
   */
  listen(again) {
    this.#obs.on('SceneItemEnableStateChanged', ({ sceneName, sceneItemId, sceneItemEnabled }) => {
      const visible = this.#items.get(`${sceneName}\u0000${sceneItemId}`);
      if (visible) visible.report(sceneItemEnabled);
      else again(() => this.#readScene(sceneName));
    });
    this.#obs.on('SceneItemCreated', ({ sceneName }) => again(() => this.#readScene(sceneName)));
  }

  /** A scene's sources and their visibility. @param {string} sceneName */
  async #readScene(sceneName) {
    const { sceneItems } = await this.#obs.call('GetSceneItemList', { sceneName });
    for (const item of sceneItems)
      this.#sceneItem(sceneName, Number(item['sceneItemId']), String(item['sourceName'])).report(item['sceneItemEnabled'] === true);
  }

  /** The visibility parameter of an item, defined the first time it is read. @param {string} sceneName @param {number} sceneItemId @param {string} sourceName */
  #sceneItem(sceneName, sceneItemId, sourceName) {
    const key = `${sceneName}\u0000${sceneItemId}`;
    let visible = this.#items.get(key);
    if (!visible) {
      // A source twice in one scene: the second item's id gets `-2`.
      const source = `scene/${this.#segments.of('scene', sceneName)}/source/${this.#segments.of('input', sourceName)}`;
      let id = `${source}/visible`;
      for (let n = 2; this.#parameters.has(id); n++) id = `${source}-${n}/visible`;
      visible = this.#parameters.commanded(id, { type: 'B', meta: { label: `${sceneName}: ${sourceName} visible` } }, (v) =>
        this.#ask('SetSceneItemEnabled', { sceneName, sceneItemId, sceneItemEnabled: v === true }),
      );
      this.#items.set(key, visible);
    }
    return visible;
  }

  /** `sceneItem/visible` and `sceneItem/transform`: commands with a scene, a source and what to do. @param {import('patchbay-hub/connection').CommandedParameters} parameters */
  #commands(parameters) {
    const where = {
      scene: { type: /** @type {const} */ ('S'), label: 'Scene', description: 'the program scene when left out', optional: true },
      preview: {
        type: /** @type {const} */ ('B'),
        label: 'The preview scene',
        description: 'instead of the program scene',
        optional: true,
      },
    };
    parameters.order(
      'sceneItem/visible',
      {
        type: 'S',
        meta: {
          label: 'Show or hide a source',
          description: 'in a scene (the program scene when left out), a source or all of them (`all`), one inside a group too',
          arguments: {
            ...where,
            source: { type: 'S', label: 'Source', optional: true },
            all: { type: 'B', label: 'All its sources', optional: true },
            visible: { type: 'S', label: 'Visible', choices: VISIBLE },
          },
        },
      },
      async (v) => {
        const { source, all = false, visible, ...at } = JSON.parse(String(v));
        if (!all && source === undefined) throw new HubError('PB_CONVERSION', 'name a `source`, or give `all: true`');
        const items = await this.#itemsOf(await this.#sceneOf(at), all ? undefined : source);
        await Promise.all(
          items.map(({ sceneName, sceneItemId, enabled }) =>
            this.#ask('SetSceneItemEnabled', {
              sceneName,
              sceneItemId,
              sceneItemEnabled: visible === 'toggle' ? !enabled : visible === 'true',
            }),
          ),
        );
      },
    );
    parameters.order(
      'sceneItem/transform',
      {
        type: 'S',
        meta: {
          label: 'Move, scale or turn a source',
          description: 'in a scene (the program scene when left out); what is left out stays',
          arguments: {
            ...where,
            source: { type: 'S', label: 'Source' },
            x: { type: 'F', label: 'Position X', unit: 'px', optional: true },
            y: { type: 'F', label: 'Position Y', unit: 'px', optional: true },
            scaleX: { type: 'F', label: 'Scale X', description: '1 is 100 %', optional: true },
            scaleY: { type: 'F', label: 'Scale Y', description: '1 is 100 %', optional: true },
            rotation: { type: 'F', label: 'Rotation', unit: '°', description: 'clockwise', optional: true },
          },
        },
      },
      async (v) => {
        const { source, x, y, scaleX, scaleY, rotation, ...at } = JSON.parse(String(v));
        const [item] = await this.#itemsOf(await this.#sceneOf(at), source);
        if (!item) throw notFound(source);
        /** @type {Record<string, number>} */
        const transform = {};
        for (const [name, value] of Object.entries({ positionX: x, positionY: y, scaleX, scaleY, rotation }))
          if (typeof value === 'number') transform[name] = value;
        await this.#ask('SetSceneItemTransform', {
          sceneName: item.sceneName,
          sceneItemId: item.sceneItemId,
          sceneItemTransform: transform,
        });
      },
    );
  }

  /** The scene a command names, or the one on program (or preview). @param {{ scene?: string, preview?: boolean }} at */
  async #sceneOf({ scene, preview = false }) {
    if (scene !== undefined) return scene;
    if (preview) return (await this.#obs.call('GetCurrentPreviewScene')).currentPreviewSceneName;
    return (await this.#obs.call('GetCurrentProgramScene')).currentProgramSceneName;
  }

  /**
   * A scene's items of a source (all its items when no source is named), looked for in its
   * groups too: each with the scene or group that holds it, as OBS addresses it.
   * @param {string} sceneName @param {string | undefined} source
   * @returns {Promise<{ sceneName: string, sceneItemId: number, enabled: boolean }[]>}
   */
  async #itemsOf(sceneName, source) {
    const { sceneItems } = await this.#obs.call('GetSceneItemList', { sceneName });
    /** @param {string} holder @param {{ [key: string]: unknown }} item */
    const found = (holder, item) => ({
      sceneName: holder,
      sceneItemId: Number(item['sceneItemId']),
      enabled: item['sceneItemEnabled'] === true,
    });
    if (source === undefined) return sceneItems.map((item) => found(sceneName, item));
    const direct = sceneItems.filter((item) => item['sourceName'] === source).map((item) => found(sceneName, item));
    if (direct.length > 0) return direct;
    for (const group of sceneItems.filter((item) => item['isGroup'] === true)) {
      const groupName = String(group['sourceName']);
      const inside = (await this.#obs.call('GetGroupSceneItemList', { sceneName: groupName })).sceneItems;
      const items = inside.filter((item) => item['sourceName'] === source).map((item) => found(groupName, item));
      if (items.length > 0) return items;
    }
    throw notFound(source);
  }
}

const VISIBLE = [
  { value: 'true', label: 'Shown' },
  { value: 'false', label: 'Hidden' },
  { value: 'toggle', label: 'Switched over' },
];

/** @param {string} source */
const notFound = (source) =>
  new HubError('PB_BAD_ANSWER', `the scene has no source ${JSON.stringify(source)}`, { declared: 'OBS_NOT_FOUND' });
