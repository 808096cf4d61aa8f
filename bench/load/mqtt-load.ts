/**
 * Load for the MQTT scenario, in a process of its own, driven over IPC: the baseline's
 * plain MQTT.js publisher or subscriber, and the writer of the hub path. The publisher sends
 * `<seq>:<monotonic ms>` at a steady rate to retained topics spread over `topics` (as the
 * hub publishes values); the subscriber counts what arrives and how late, as the WebSocket
 * load clients do; the writer sends the same values to a hub as WebSocket batches.
 */
import mqtt, { type MqttClient } from 'mqtt';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { nowMs, sleep } from '../lib/clock.ts';

type Command =
  | { cmd: 'subscribe'; url: string; filter: string }
  | { cmd: 'reset' }
  | { cmd: 'report' }
  | { cmd: 'count' }
  | { cmd: 'publish'; url: string; rate: number; seconds: number; topics: string[]; startSeq: number }
  | { cmd: 'write'; port: number; rate: number; seconds: number; parameters: string[]; startSeq: number };

let client: MqttClient | undefined;
let received = 0;
let latencies: number[] = [];
let first = 0;
let last = 0;

async function connect(url: string): Promise<MqttClient> {
  const connected = await mqtt.connectAsync(url, { protocolVersion: 5, reconnectPeriod: 0 });
  (connected.stream as Partial<Socket>).setNoDelay?.(true);
  return connected;
}

async function run(command: Command): Promise<Record<string, unknown>> {
  switch (command.cmd) {
    case 'subscribe': {
      client = await connect(command.url);
      client.on('message', (_topic, payload) => {
        const now = nowMs();
        const text = payload.toString();
        const colon = text.indexOf(':');
        if (colon < 0) return;
        if (received === 0) first = now;
        last = now;
        received++;
        latencies.push(now - Number(text.slice(colon + 1)));
      });
      await client.subscribeAsync(command.filter, { qos: 1 });
      return {};
    }
    case 'reset':
      received = 0;
      latencies = [];
      return {};
    case 'report':
      return { received, latencies, first, last };
    case 'count':
      return { received };
    case 'publish': {
      const publisher = await connect(command.url);
      const { rate, seconds, topics } = command;
      let seq = command.startSeq;
      let sent = 0;
      let acknowledged = 0;
      const started = nowMs();
      const end = started + seconds * 1000;
      while (nowMs() < end) {
        const due = Math.floor(((nowMs() - started) / 1000) * rate) - sent;
        for (let i = 0; i < due; i++) {
          publisher.publish(topics[seq % topics.length]!, `${seq}:${nowMs().toFixed(3)}`, { qos: 1, retain: true }, () => acknowledged++);
          seq++;
          sent++;
        }
        await sleep(1);
      }
      const deadline = nowMs() + 10_000;
      while (acknowledged < sent && nowMs() < deadline) await sleep(10);
      await publisher.endAsync();
      return { sent, acknowledged, seconds: (nowMs() - started) / 1000, nextSeq: seq };
    }
    case 'write': {
      // Batches of up to 100 values a message (R-W1), each turn's due values at once.
      const socket = new WebSocket(`ws://127.0.0.1:${command.port}/ws?filter=%5E%24`);
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      // A hub that cannot apply the writes as fast as they come closes the socket (1008): the run says so.
      let cut = false;
      socket.once('close', () => (cut = true));
      const { rate, seconds, parameters } = command;
      let seq = command.startSeq;
      let sent = 0;
      const started = nowMs();
      const end = started + seconds * 1000;
      while (nowMs() < end && !cut) {
        let due = Math.floor(((nowMs() - started) / 1000) * rate) - sent;
        while (due > 0) {
          const batch: { p: string; v: string }[] = [];
          for (; due > 0 && batch.length < 100; due--, seq++, sent++)
            batch.push({ p: parameters[seq % parameters.length]!, v: `${seq}:${nowMs().toFixed(3)}` });
          socket.send(JSON.stringify(batch));
        }
        await sleep(1);
      }
      const wasCut = cut;
      socket.close();
      return { sent, cut: wasCut, seconds: (nowMs() - started) / 1000, nextSeq: seq };
    }
  }
}

process.on('message', async (message: Command) => {
  try {
    process.send?.({ cmd: message.cmd, ...(await run(message)) });
  } catch (error) {
    process.send?.({ cmd: message.cmd, error: (error as Error).message });
  }
});
process.on('disconnect', () => void client?.end(true));
process.send?.({ cmd: 'started' });
