/**
 * `scenes`: named snapshots of other connections' parameters, stored and recalled by an
 * operator (R-Y1). A scene's `members` are address patterns (`studio/#`, `+/gain`); a store
 * keeps the current value of every member that is a read-write state parameter with a known
 * value, a recall writes those values back, all in one event-loop turn, through each
 * parameter's `set` as a client's write would go (rules fire, devices receive).
 *
 * Parameters:
 *   <id>/store    T   write-only   keeps the current values of the scene's members
 *   <id>/recall   T   write-only   writes the kept values back, in one turn
 *   <id>/dirty    B   read-only    true while a kept member that exists differs from the scene
 *   <id>/members  I   read-only    how many members the stored scene holds; 0 before a store
 *   <id>/report   S   read-only    what the last store or recall did: how many members, which
 *                                  were gone, refused or over the bound
 *
 * Stored scenes are records of the connection (`scene/<id>`): in the state folder when the
 * hub has one, so they survive restarts and travel with `patchbay state … export`.
 */
import { Type } from '@sinclair/typebox';
import { checked, defineConnectionType, type Issue, withDefault, segmentPattern, AddressPatterns } from '../../sdk/index.ts';
import { Scene, type SceneBound, type SceneSettings } from './scene.ts';

const settings = Type.Object({
  scenes: withDefault(
    Type.Array(
      Type.Object(
        {
          id: Type.String({
            pattern: segmentPattern,
            expected: 'an id of 1–128 characters A-Z a-z 0-9 _ - .',
            description: 'Names the scene: its parameters are <id>/store, <id>/recall, <id>/dirty, <id>/members and <id>/report.',
          }),
          members: Type.Array(Type.String({ minLength: 1 }), {
            minItems: 1,
            // The console picks them from the hub's parameters (address-list-field.js).
            form: 'addresses',
            description:
              'Address patterns of the parameters the scene holds: levels split at "/", "+" for one level, a final "#" for the rest ("studio/#", "+/gain").',
          }),
          description: Type.Optional(Type.String({ description: 'Free text for people.' })),
        },
        { additionalProperties: false },
      ),
      { description: 'The scenes, each with its own store, recall, dirty, members and report parameters.' },
    ),
    [],
  ),
  maxMembers: withDefault(
    Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      description:
        'The most members one scene may keep. A store that would keep more keeps nothing, says so in <id>/report and leaves the connection degraded until a store fits.',
    }),
    10_000,
  ),
});

/** Member patterns compile as address patterns; scene ids are distinct. */
function parseScenes(scenes: readonly { id: string; members: string[] }[]): { issues: Issue[]; parsed: SceneSettings[] } {
  const issues: Issue[] = [];
  const parsed: SceneSettings[] = [];
  const seen = new Set<string>();
  scenes.forEach(({ id, members }, index) => {
    if (seen.has(id)) issues.push({ path: ['scenes', index, 'id'], message: `"${id}" is defined twice` });
    seen.add(id);
    const patterns = AddressPatterns.compile(members);
    if (!patterns.ok) issues.push({ path: ['scenes', index, 'members'], message: patterns.error.message });
    else parsed.push({ id, members, patterns: patterns.value });
  });
  return { issues, parsed };
}

export const scenesType = defineConnectionType({
  type: 'scenes',
  summary: 'Named scenes of other parameters that an operator stores and recalls in one go.',
  settings,
  parse: ({ scenes: written, maxMembers }) => {
    const { issues, parsed } = parseScenes(written);
    return checked(issues, { scenes: parsed, maxMembers });
  },
  create(context, { scenes: sceneList, maxMembers }) {
    const running: Scene[] = [];
    // Scenes whose latest store was over maxMembers: the connection is degraded while any is.
    const overBound = new Set<string>();
    const showBound = () => {
      const [first] = overBound;
      if (first === undefined) context.setStatus('ok');
      else
        context.setStatus(
          'degraded',
          `scene ${first}: its members match more than maxMembers (${maxMembers}) parameters; nothing was stored`,
          'PB_OVER_LIMIT',
        );
    };

    return {
      start() {
        const bound: SceneBound = {
          maxMembers,
          over(id, over) {
            if (over === overBound.has(id)) return;
            if (over) overBound.add(id);
            else overBound.delete(id);
            showBound();
          },
        };
        for (const scene of sceneList) running.push(new Scene(context, scene, bound));
      },
      details: () => ({ scenes: running.map((scene) => scene.details()) }),
      stop() {
        for (const scene of running.splice(0)) scene.close();
        overBound.clear();
      },
    };
  },
});
