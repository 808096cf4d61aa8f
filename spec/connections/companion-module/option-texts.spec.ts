import test from 'ava';
import { OptionTexts } from '../../../lib/connections/companion-module/option-texts.ts';

const values: Record<string, string> = {
  'studio/secret': 'hunter2',
  'pub/title': 'Tonight: $(studio/secret)',
  'desk:level': '70',
};

/** Texts over `values`, where the connection may read `desk:level` and `pub/title` alone. */
const texts = () =>
  new OptionTexts({
    read: (name) => values[name] ?? '$NA',
    entitled: (name) => name === 'desk:level' || name === 'pub/title',
  });

test('a written value is put into its option text as it is, never read again as $(…)', (t) => {
  const filled = texts();
  t.is(filled.fill('/page/$(value)', '$(studio/secret)'), '/page/$(studio/secret)');
  t.is(filled.fill('$(value)/$(value)', 'a'), 'a/a');
  t.is(filled.fill('$(value) at $(desk:level)', '$(desk:level)'), '$(desk:level) at 70');
  t.is(filled.fill('$(value)'), '$NA', 'no written value: the name reads as any other');
});

test('a hub value put into a text is not read again as $(…)', (t) => {
  t.is(texts().fill('$(pub/title)!'), 'Tonight: $(studio/secret)!');
});

test("a module's parse leaves what the hub put in as it is, and reads the rest", (t) => {
  const filled = texts();
  const sent = filled.fill('/page/$(value)', '$(studio/secret)');
  t.is(filled.parse(`${sent} ($(desk:level))`), '/page/$(studio/secret) (70)');
  const title = filled.fill('$(pub/title)');
  t.is(filled.parse(`${title} $(pub/title)`), 'Tonight: $(studio/secret) Tonight: $(studio/secret)');
  t.is(filled.parse('$(studio/secret)'), '$(studio/secret)', 'a value put in, wherever it is');
  t.is(texts().parse('$(studio/secret)'), '$NA', 'the same text the hub did not put in');
});

test('a module reads only what its connection is entitled to: its variables and the names its settings give', (t) => {
  const filled = texts();
  t.is(filled.parse('$(studio/secret) $(desk:level) $(pub/title)'), '$NA 70 Tonight: $(studio/secret)');
});

test('values put in are remembered up to a bound, the latest kept', (t) => {
  const filled = texts();
  filled.fill('$(value)', '$(studio/secret)');
  for (let i = 0; i < 100; i++) filled.fill('$(value)', `$(x${i})`);
  t.is(filled.parse('$(x99)'), '$(x99)');
  t.is(filled.parse('$(studio/secret)'), '$NA', 'forgotten, it reads as any text the module sends');
});
