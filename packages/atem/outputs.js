// @ts-check
/**
 * What leaves the switcher for the world, where the model has it: streaming (on or off, its
 * state, its service) and recording (on or off, its state, the file name, ISO, the disk); and
 * the startup state, saved or cleared.
 */
import { Enums } from 'atem-connection';

const STREAMING = /** @type {const} */ ([
  [Enums.StreamingStatus.Idle, 'idle'],
  [Enums.StreamingStatus.Connecting, 'connecting'],
  [Enums.StreamingStatus.Streaming, 'streaming'],
  [Enums.StreamingStatus.Stopping, 'stopping'],
]);
const RECORDING = /** @type {const} */ ([
  [Enums.RecordingStatus.Idle, 'idle'],
  [Enums.RecordingStatus.Recording, 'recording'],
  [Enums.RecordingStatus.Stopping, 'stopping'],
]);

export class Outputs {
  #atem;
  #parameters;

  /**
   * The startup state is every switcher's: saved and cleared from the start.
   * @param {import('atem-connection').Atem} atem
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters
   */
  constructor(atem, parameters) {
    this.#atem = atem;
    this.#parameters = parameters;
    parameters.trigger('startup/save', { label: 'Save the startup state' }, () => atem.saveStartupState());
    parameters.trigger('startup/clear', { label: 'Clear the startup state' }, () => atem.clearStartupState());
  }

  /** Streaming and recording, where the switcher has said it has them. @param {import('atem-connection').AtemState} state */
  read(state) {
    const atem = this.#atem;
    const parameters = this.#parameters;
    const streaming = state.streaming;
    if (streaming) {
      const now = STREAMING.find(([status]) => status === streaming.status?.state)?.[1] ?? 'idle';
      parameters
        .commanded('stream/on', { type: 'B', meta: { label: 'Streaming' } }, (v) =>
          v === true ? atem.startStreaming() : atem.stopStreaming(),
        )
        .report(now === 'streaming' || now === 'connecting');
      parameters.readOnly('stream/state', { type: 'S', meta: { label: 'Streaming state' } }).report(now);
      // The key is the switcher's secret: written, never read back.
      const meta = {
        label: 'Streaming service',
        arguments: {
          service: { type: /** @type {const} */ ('S'), label: 'Service', optional: true },
          url: { type: /** @type {const} */ ('S'), label: 'URL', optional: true },
          key: { type: /** @type {const} */ ('S'), label: 'Key', optional: true },
        },
      };
      parameters
        .commanded('stream/service', { type: 'S', meta }, (v) => {
          const { service, url, key } = /** @type {{ service?: string, url?: string, key?: string }} */ (JSON.parse(String(v)));
          return atem.setStreamingService({
            ...(service !== undefined && { serviceName: service }),
            ...(url !== undefined && { url }),
            ...(key !== undefined && { key }),
          });
        })
        .report(JSON.stringify({ service: streaming.service.serviceName, url: streaming.service.url }));
    }
    const recording = state.recording;
    if (recording) {
      const now = RECORDING.find(([status]) => status === recording.status?.state)?.[1] ?? 'idle';
      parameters
        .commanded('record/on', { type: 'B', meta: { label: 'Recording' } }, (v) =>
          v === true ? atem.startRecording() : atem.stopRecording(),
        )
        .report(now === 'recording');
      parameters.readOnly('record/state', { type: 'S', meta: { label: 'Recording state' } }).report(now);
      parameters
        .commanded('record/filename', { type: 'S', meta: { label: 'Recording file name' } }, (v) =>
          atem.setRecordingSettings({ filename: String(v) }),
        )
        .report(recording.properties.filename);
      parameters
        .commanded('record/iso', { type: 'B', meta: { label: 'Record every input (ISO)' } }, (v) => atem.setEnableISORecording(v === true))
        .report(recording.recordAllInputs ?? false);
      parameters.trigger('record/switchDisk', { label: 'Switch recording disk' }, () => atem.switchRecordingDisk());
    }
  }
}
