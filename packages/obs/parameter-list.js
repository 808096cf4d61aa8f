// @ts-check
/**
 * Every parameter the type makes, by id pattern (`<input>` an input's name as a segment):
 * the type's declaration, which the hub shows and the testing kit holds each made parameter
 * against. The README's Parameters table says the same for people.
 */

/** @type {import('patchbay-hub/connection').ParameterDoc[]} */
export const parameterList = [
  { id: 'scene/program', type: 'S', access: 'read-write', description: "the scene on program (choices: OBS's scenes, by name)" },
  {
    id: 'scene/preview',
    type: 'S',
    access: 'read-write',
    description: 'the scene on preview in studio mode, empty when studio mode is off (choices: the scenes)',
  },
  { id: 'studioMode', type: 'B', access: 'read-write', description: 'whether studio mode (preview and program) is on' },
  {
    id: 'transition/run',
    type: 'T',
    access: 'write-only',
    description: 'takes preview to program with the current transition (studio mode)',
  },
  {
    id: 'transition/current',
    type: 'S',
    access: 'read-write',
    description: "the transition the next scene change uses (choices: OBS's transitions)",
  },
  { id: 'transition/duration', type: 'I', access: 'read-write', description: "the current transition's duration", unit: 'ms' },
  { id: 'transition/running', type: 'B', access: 'read-only', description: 'whether a transition is under way' },
  { id: 'scene/<scene>/source/<source>/visible', type: 'B', access: 'read-write', description: "a source's visibility in a scene" },
  { id: 'input/<input>/tally/program', type: 'B', access: 'read-only', description: 'the source is on air (OBS says it is active)' },
  {
    id: 'input/<input>/tally/preview',
    type: 'B',
    access: 'read-only',
    description: 'the source is shown but not on air: on preview in studio mode',
  },
  { id: 'recording/active', type: 'B', access: 'read-write', description: 'whether OBS records; write true to start, false to stop' },
  { id: 'recording/paused', type: 'B', access: 'read-write', description: 'whether the recording is paused' },
  { id: 'streaming/active', type: 'B', access: 'read-write', description: 'whether OBS streams; write true to start, false to stop' },
  { id: 'device/version', type: 'S', access: 'read-only', description: "OBS's version and its WebSocket server's" },
  // switching.js
  { id: 'scene/previous', type: 'S', access: 'read-only', description: 'the scene on program before the one on program now' },
  { id: 'scene/previewNext', type: 'T', access: 'write-only', description: 'puts the next scene of the list on preview (studio mode)' },
  { id: 'scene/previewPrevious', type: 'T', access: 'write-only', description: 'puts the scene before on preview (studio mode)' },
  {
    id: 'scene/smart',
    type: 'S',
    access: 'write-only',
    description: 'a scene to preview, taken to program if on preview already (program outside studio mode)',
  },
  { id: 'transition/next', type: 'T', access: 'write-only', description: "the next transition of OBS's list" },
  { id: 'transition/previous', type: 'T', access: 'write-only', description: "the transition before in OBS's list" },
  { id: 'transition/durationAdjust', type: 'I', access: 'write-only', description: 'adds to the duration (or takes from it)', unit: 'ms' },
  {
    id: 'transition/quick',
    type: 'S',
    access: 'write-only',
    description: 'a take with another transition, then back: {transition, duration}',
  },
  // audio.js
  { id: 'input/<input>/audio/muted', type: 'B', access: 'read-write', description: 'the input muted' },
  { id: 'input/<input>/audio/volume', type: 'F', access: 'read-write', description: 'its volume (-100 to 26)', unit: 'dB' },
  { id: 'input/<input>/audio/volumeAdjust', type: 'F', access: 'write-only', description: 'adds to the volume', unit: 'dB' },
  { id: 'input/<input>/audio/volumePercentAdjust', type: 'F', access: 'write-only', description: "moves OBS's fader", unit: '%' },
  { id: 'input/<input>/audio/volumeFade', type: 'S', access: 'write-only', description: 'fades the volume: {volume, duration}' },
  { id: 'input/<input>/audio/syncOffset', type: 'I', access: 'read-write', description: 'its sync offset', unit: 'ms' },
  { id: 'input/<input>/audio/syncOffsetAdjust', type: 'I', access: 'write-only', description: 'adds to the sync offset', unit: 'ms' },
  { id: 'input/<input>/audio/balance', type: 'F', access: 'read-write', description: 'its balance, 0 left to 1 right' },
  { id: 'input/<input>/audio/balanceAdjust', type: 'F', access: 'write-only', description: 'adds to the balance' },
  { id: 'input/<input>/audio/monitor', type: 'S', access: 'read-write', description: 'monitoring: none, monitorOnly, monitorAndOutput' },
  { id: 'input/<input>/audio/peak', type: 'F', access: 'read-only', description: 'its peak level, at most 5 times a second', unit: 'dBFS' },
  // sources.js
  { id: 'input/<input>/text', type: 'S', access: 'read-write', description: "a text source's text" },
  { id: 'input/<input>/reset', type: 'T', access: 'write-only', description: 'opens a video capture device again' },
  { id: 'input/<input>/refresh', type: 'T', access: 'write-only', description: 'reloads a browser source' },
  // media.js
  { id: 'input/<input>/media/playing', type: 'B', access: 'read-write', description: 'a media source playing; false pauses' },
  { id: 'input/<input>/media/restart', type: 'T', access: 'write-only', description: 'plays it from the start' },
  { id: 'input/<input>/media/stop', type: 'T', access: 'write-only', description: 'stops it' },
  { id: 'input/<input>/media/next', type: 'T', access: 'write-only', description: 'the next item of its playlist' },
  { id: 'input/<input>/media/previous', type: 'T', access: 'write-only', description: 'the item before' },
  { id: 'input/<input>/media/time', type: 'I', access: 'read-write', description: 'where the play is', unit: 'ms' },
  { id: 'input/<input>/media/duration', type: 'I', access: 'read-only', description: 'how long the media is', unit: 'ms' },
  { id: 'input/<input>/media/remaining', type: 'I', access: 'read-only', description: 'how much is left', unit: 'ms' },
  { id: 'input/<input>/media/scrub', type: 'I', access: 'write-only', description: 'moves the play forward or back', unit: 'ms' },
  { id: 'input/<input>/media/file', type: 'S', access: 'read-write', description: "the file it plays, on OBS's machine" },
  // filters.js
  { id: 'scene/<scene>/filter/<filter>/enabled', type: 'B', access: 'read-write', description: "a scene's filter on" },
  {
    id: 'scene/<scene>/filter/<filter>/settings',
    type: 'S',
    access: 'write-only',
    description: "changes a scene's filter's settings (JSON)",
  },
  { id: 'input/<input>/filter/<filter>/enabled', type: 'B', access: 'read-write', description: "an input's filter on" },
  {
    id: 'input/<input>/filter/<filter>/settings',
    type: 'S',
    access: 'write-only',
    description: "changes an input's filter's settings (JSON)",
  },
  // outputs.js
  { id: 'replayBuffer/active', type: 'B', access: 'read-write', description: 'the replay buffer running' },
  { id: 'replayBuffer/save', type: 'T', access: 'write-only', description: 'saves the replay buffer to a file' },
  { id: 'replayBuffer/lastSaved', type: 'S', access: 'read-only', description: 'the path of the replay saved last' },
  { id: 'virtualCam/active', type: 'B', access: 'read-write', description: 'the virtual camera running' },
  { id: 'output/<output>/active', type: 'B', access: 'read-write', description: "another output (a plugin's) running" },
  { id: 'streaming/caption', type: 'S', access: 'write-only', description: 'a caption sent with the stream' },
  { id: 'streaming/settings', type: 'S', access: 'write-only', description: 'where the stream goes: {type, service, server, key, …}' },
  { id: 'recording/split', type: 'T', access: 'write-only', description: 'splits the recording into a new file (OBS 30.2 and later)' },
  { id: 'recording/chapter', type: 'S', access: 'write-only', description: 'adds a chapter marker (OBS 30.2 and later, Hybrid MP4)' },
  // collections.js, hotkeys.js, screenshot.js
  { id: 'profile', type: 'S', access: 'read-write', description: "OBS's profile (choices: its profiles)" },
  { id: 'sceneCollection', type: 'S', access: 'read-write', description: "OBS's scene collection (choices: its collections)" },
  { id: 'hotkey/press', type: 'S', access: 'write-only', description: 'presses a hotkey by its name (choices: OBS’s hotkeys)' },
  { id: 'hotkey/keys', type: 'S', access: 'write-only', description: 'presses keys: {key, shift, alt, control, command}' },
  { id: 'screenshot', type: 'S', access: 'write-only', description: 'saves a still: {source, format, quality, folder, name}' },
  // stats.js
  { id: 'stats/fps', type: 'F', access: 'read-only', description: "OBS's frame rate", unit: 'fps' },
  { id: 'stats/frameTime', type: 'F', access: 'read-only', description: 'the average time to render a frame', unit: 'ms' },
  { id: 'stats/renderMissedFrames', type: 'I', access: 'read-only', description: 'frames the renderer missed', unit: 'frames' },
  { id: 'stats/outputSkippedFrames', type: 'I', access: 'read-only', description: 'frames the encoder skipped', unit: 'frames' },
  { id: 'stats/cpu', type: 'F', access: 'read-only', description: "OBS's CPU use", unit: '%' },
  { id: 'stats/memory', type: 'F', access: 'read-only', description: "OBS's memory", unit: 'MB' },
  { id: 'stats/diskSpace', type: 'F', access: 'read-only', description: 'disk space left where OBS records', unit: 'MB' },
  { id: 'streaming/congestion', type: 'F', access: 'read-only', description: "the stream's congestion, 0 to 1" },
  { id: 'streaming/timecode', type: 'S', access: 'read-only', description: 'how long the stream has run' },
  { id: 'recording/timecode', type: 'S', access: 'read-only', description: 'how long the recording has run' },
];
