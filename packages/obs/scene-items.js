// @ts-check
/**
 * Each source's visibility in each scene (the eye in OBS's Sources list), read on connect
 * and as scenes change, and written as a request to OBS.
 */

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
   * @param {Pick<import('patchbay-hub/connection').CommandedParameters, 'commanded' | 'has'>} parameters
   * @param {import('./segments.js').Segments} segments
   */
  constructor(obs, ask, parameters, segments) {
    this.#obs = obs;
    this.#ask = ask;
    this.#parameters = parameters;
    this.#segments = segments;
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
}
