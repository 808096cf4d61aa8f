import test from 'ava';
import { parameterIdOf } from '../../lib/sdk/device/device-parameters.ts';

test('names a device gives become parameter ids: characters an id cannot hold replaced, empty names numbered, the reserved "_" avoided (R-G2)', (t) => {
  t.is(parameterIdOf(['Studio A', 'Fader 1', 'Gain (dB)']), 'Studio_A/Fader_1/Gain__dB_');
  t.is(
    parameterIdOf(['mixer', '', 'level'], (index) => `n${index}`),
    'mixer/n1/level',
  );
  t.is(parameterIdOf(['..', 'x']), '0/x');
  t.is(parameterIdOf(['_hub', 'x']), '-hub/x');
  t.is(parameterIdOf(['a'.repeat(200)])?.length, 128);
  t.is(parameterIdOf(['ü€']), '-_');
  t.is(parameterIdOf([]), undefined);
});
