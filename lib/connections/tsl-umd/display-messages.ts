/**
 * A display's messages both ways: what a received packet says of each display it names, and
 * the packet that says what a display shows now.
 */
import type { Value } from '../../sdk/index.ts';
import { decodeV5, decodeV31, EVERY, encodeV5, encodeV31, type Malformed, wrapV5 } from './packets.ts';

/** What a packet says of one display: its key, or (v5.0, 0xFFFF) the screen and index that name every display shown already. */
export interface Said {
  readonly display: string | { readonly screen: number; readonly index: number };
  readonly values: Readonly<Record<string, Value>>;
}

/** What a packet of `version` says of the displays it names, in order, or what is wrong with it. */
export function displaysSaid(version: '3.1' | '5.0', packet: Buffer): readonly Said[] | Malformed {
  return version === '3.1' ? saidV31(packet) : saidV5(packet);
}

function saidV31(packet: Buffer): readonly Said[] | Malformed {
  const heard = decodeV31(packet);
  if (typeof heard === 'string') return heard;
  const [t1, t2, t3, t4] = heard.tally;
  const values = { text: heard.text, brightness: heard.brightness, 'tally/1': t1, 'tally/2': t2, 'tally/3': t3, 'tally/4': t4 };
  return [{ display: String(heard.address), values }];
}

function saidV5(packet: Buffer): readonly Said[] | Malformed {
  const heard = decodeV5(packet);
  if (typeof heard === 'string') return heard;
  return heard.displays.map((shown) => ({
    display:
      heard.screen === EVERY || shown.index === EVERY ? { screen: heard.screen, index: shown.index } : `${heard.screen}/${shown.index}`,
    values: {
      text: shown.text,
      brightness: shown.brightness,
      'tally/rh': shown.rh,
      'tally/text': shown.textTally,
      'tally/lh': shown.lh,
    },
  }));
}

/** The message that says what display `key` shows now, `field` giving its values by field id: framed for a TCP stream. */
export function displayMessage(version: '3.1' | '5.0', transport: 'udp' | 'tcp', key: string, field: (id: string) => Value): Buffer {
  if (version === '3.1')
    return encodeV31({
      address: Number(key),
      text: String(field('text')),
      brightness: Number(field('brightness')),
      tally: [field('tally/1') === true, field('tally/2') === true, field('tally/3') === true, field('tally/4') === true],
    });
  const [screen, index] = key.split('/').map(Number) as [number, number];
  const packet = encodeV5(screen, [
    {
      index,
      text: String(field('text')),
      brightness: Number(field('brightness')),
      rh: Number(field('tally/rh')),
      textTally: Number(field('tally/text')),
      lh: Number(field('tally/lh')),
    },
  ]);
  return transport === 'tcp' ? wrapV5(packet) : packet;
}
