/**
 * One write a turn to the broker. MQTT.js writes a packet as its pieces (mqtt-packet writes
 * the header, the topic's length, the topic, and each user property's name and value
 * apart): a shared value, with the site key's three properties, is some thirty
 * `Writable.write` calls, and the stream's bookkeeping for each cost more than the packet's
 * encoding (a profile of hub sharing at 20,000 values a second: a third of the publishing
 * hub's time). What a turn writes is gathered here and goes out as one buffer when the turn
 * ends; acknowledgements of a read's messages go with it.
 */
import type { Writable } from 'node:stream';
/** Makes `stream` gather its writes until the end of the turn; once per stream. */
export declare function writeOncePerTurn(stream: Writable): void;
