import type { PipeStep } from '../signal.ts';
import { edgeStep } from './edge.ts';
import { filterStep } from './filter.ts';
import { formatStep } from './format.ts';
import { mapStep } from './map.ts';
import { notStep } from './not.ts';
import { roundStep } from './round.ts';
import { scaleStep } from './scale.ts';
import { setStep } from './set.ts';
import { debounceStep } from './debounce.ts';
import { delayStep } from './delay.ts';
import { throttleStep } from './throttle.ts';
import { toggleStep } from './toggle.ts';

/** Every pipe step of R-R3, by the key that names it in a flow file. */
export const pipeSteps: Readonly<Record<string, PipeStep<never>>> = Object.fromEntries(
  [
    filterStep,
    mapStep,
    setStep,
    notStep,
    scaleStep,
    roundStep,
    formatStep,
    debounceStep,
    throttleStep,
    delayStep,
    edgeStep,
    toggleStep,
  ].map((step) => [step.name, step as PipeStep<never>]),
);
