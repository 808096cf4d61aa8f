// @ts-check
/**
 * The switcher's macros: each one the switcher has, run by its name, and the player — stop,
 * continue a macro that waits, loop — with what it is doing; numbered from 1 as the panel
 * names them (`macro/1` is the pool's first).
 */

export class Macros {
  #atem;
  #parameters;
  #running;
  #waiting;
  #recording;
  #loop;

  /**
   * Stop, continue, loop and what the player does exist before the switcher is reached.
   * @param {import('atem-connection').Atem} atem
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters
   */
  constructor(atem, parameters) {
    this.#atem = atem;
    this.#parameters = parameters;
    this.#running = parameters.readOnly('macro/running', { type: 'I', meta: { label: 'Macro running' } });
    this.#waiting = parameters.readOnly('macro/waiting', { type: 'B', meta: { label: 'Macro waiting' } });
    this.#recording = parameters.readOnly('macro/recording', { type: 'I', meta: { label: 'Macro being recorded' } });
    this.#loop = parameters.commanded('macro/loop', { type: 'B', meta: { label: 'Loop macros' } }, (v) => atem.macroSetLoop(v === true));
    parameters.trigger('macro/stop', { label: 'Stop macro' }, () => atem.macroStop());
    parameters.trigger('macro/continue', { label: 'Continue macro' }, () => atem.macroContinue());
  }

  /**
   * Runs a macro, as the panel's button does: the macro being recorded stops its recording
   * instead; with `orContinue`, the macro that waits is continued instead.
   * @param {number} index @param {boolean} orContinue
   */
  #run(index, orContinue) {
    const { macroPlayer: player, macroRecorder: recorder } = this.#atem.state?.macro ?? {};
    if (orContinue && player?.isWaiting && player.macroIndex === index) return this.#atem.macroContinue();
    if (recorder?.isRecording && recorder.macroIndex === index) return this.#atem.macroStopRecord();
    return this.#atem.macroRun(index);
  }

  /** The macros the switcher has, each by its name, and what the player does. @param {import('atem-connection').AtemState} state */
  read(state) {
    state.macro.macroProperties.forEach((macro, index) => {
      if (!macro) return;
      const n = index + 1;
      this.#parameters.readOnly(`macro/${n}/used`, { type: 'B', meta: { label: `Macro ${n} recorded` } }).report(macro.isUsed);
      if (!macro.isUsed) return;
      this.#parameters.trigger(`macro/${n}/run`, { label: `Macro ${n}: ${macro.name}` }, () => this.#run(index, false));
      this.#parameters.trigger(`macro/${n}/runContinue`, { label: `Macro ${n}: ${macro.name}, run or continue` }, () =>
        this.#run(index, true),
      );
    });
    const { macroPlayer: player, macroRecorder: recorder } = state.macro;
    this.#running.report(player.isRunning ? player.macroIndex + 1 : 0);
    this.#waiting.report(player.isWaiting);
    this.#loop.report(player.loop);
    this.#recording.report(recorder?.isRecording ? recorder.macroIndex + 1 : 0);
  }
}
