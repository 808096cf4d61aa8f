// @ts-check
/**
 * OBS's profile (its output and video settings) and scene collection, each chosen by name.
 * A new scene collection is a new studio: the connection reads everything again (`changed`).
 */

export class Collections {
  #obs;
  #profile;
  #collection;

  /**
   * @param {import('obs-websocket-js').OBSWebSocket} obs
   * @param {import('./requests.js').Ask} ask
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters
   */
  constructor(obs, ask, parameters) {
    this.#obs = obs;
    this.#profile = parameters.commanded('profile', { type: 'S', meta: { label: 'Profile' } }, (v) =>
      ask('SetCurrentProfile', { profileName: String(v) }),
    );
    this.#collection = parameters.commanded('sceneCollection', { type: 'S', meta: { label: 'Scene collection' } }, (v) =>
      ask('SetCurrentSceneCollection', { sceneCollectionName: String(v) }),
    );
  }

  async read() {
    const [profiles, collections] = await Promise.all([this.#obs.call('GetProfileList'), this.#obs.call('GetSceneCollectionList')]);
    this.#profiles(profiles.profiles, profiles.currentProfileName);
    this.#collections(collections.sceneCollections, collections.currentSceneCollectionName);
  }

  /**
   * @param {(read: () => Promise<unknown>) => void} again
   * @param {() => Promise<unknown>} readAll what a new scene collection asks for
   */
  listen(again, readAll) {
    const obs = this.#obs;
    obs.on('CurrentProfileChanged', ({ profileName }) => this.#profile.report(profileName));
    obs.on('ProfileListChanged', ({ profiles }) => this.#profiles(profiles));
    obs.on('SceneCollectionListChanged', ({ sceneCollections }) => this.#collections(sceneCollections));
    obs.on('CurrentSceneCollectionChanged', ({ sceneCollectionName }) => {
      this.#collection.report(sceneCollectionName);
      again(readAll);
    });
  }

  /** @param {string[]} names @param {string} [current] */
  #profiles(names, current) {
    this.#profile.describe({ ...this.#profile.meta, choices: names.map((name) => ({ value: name, label: name })) });
    if (current !== undefined) this.#profile.report(current);
  }

  /** @param {string[]} names @param {string} [current] */
  #collections(names, current) {
    this.#collection.describe({ ...this.#collection.meta, choices: names.map((name) => ({ value: name, label: name })) });
    if (current !== undefined) this.#collection.report(current);
  }
}
