/**
 * Companion Satellite's messages: one a line, a command then parameters `NAME=value`
 * separated by spaces, a value in double quotes when it holds spaces, `\` taking the next
 * character as it is, a parameter without `=` meaning true (`ADD-DEVICE OK DEVICEID="a"`).
 */

export interface Message {
  readonly command: string;
  /** Parameters by name; a bare word (`OK`, `ERROR`) is true. */
  readonly params: Readonly<Record<string, string | true>>;
}

/** Names a message may not set on a plain object. */
const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);

export function parseMessage(line: string): Message {
  const words: string[] = [''];
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === '\\') words[words.length - 1] += line[++i] ?? '';
    else if (c === '"') quoted = !quoted;
    else if (c === ' ' && !quoted) words.push('');
    else words[words.length - 1] += c;
  }
  const [command = '', ...rest] = words.filter((word) => word !== '');
  const params: Record<string, string | true> = Object.create(null);
  for (const word of rest) {
    const equals = word.indexOf('=');
    const name = equals === -1 ? word : word.slice(0, equals);
    if (UNSAFE.has(name)) continue;
    params[name] = equals === -1 ? true : word.slice(equals + 1);
  }
  return { command: command.toUpperCase(), params };
}

/** A line to send: strings quoted (with `\` before a quote or a backslash), numbers as they are, booleans as 1 or 0. */
export function formatMessage(command: string, params: Readonly<Record<string, string | number | boolean>> = {}): string {
  const parts = [command];
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'string') parts.push(`${name}="${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`);
    else parts.push(`${name}=${typeof value === 'boolean' ? (value ? 1 : 0) : value}`);
  }
  return `${parts.join(' ')}\n`;
}
