/**
 * Settings that many types have, written once: a device's host and port, the address a
 * server listens on, the type of a parameter a setting declares, and what a server of the
 * hub checks of a browser (the origins of pages it lets in, the host names it answers to).
 * A package's type uses them as a built-in one does, so every port reads the same bounds
 * and every type list the same letters.
 */
import { type TArray, type TInteger, type TLiteral, type TString, type TUnion, Type } from '@sinclair/typebox';
import type { ValueType } from '../core/value.ts';
import { type TDefaulted, withDefault } from './settings.ts';

/** A device's host name or IP address, where the hub connects or sends: never empty. */
export function hostSetting(description: string): TString {
  return Type.String({ minLength: 1, description });
}

/**
 * The local address a server or receiver of the hub listens on, `""` for every interface:
 * `fallback` when the flow leaves it out (every interface unless said otherwise).
 */
export function listenAddressSetting(description: string, fallback = ''): TDefaulted<TString> {
  return withDefault(Type.String({ description }), fallback);
}

/**
 * A TCP or UDP port: 1–65535 where the hub connects or sends; with `anyFree`, 0 too, which
 * a listener takes as "any free port" (its details and its log say which).
 */
export function portSetting(description: string, { anyFree = false }: { readonly anyFree?: boolean } = {}): TInteger {
  return Type.Integer({ minimum: anyFree ? 0 : 1, maximum: 65_535, description });
}

/** The type of a parameter a setting declares: one of `types` (every type, the trigger included, by default). */
export function valueTypeSetting(description: string): TUnion<TLiteral<ValueType>[]>;
export function valueTypeSetting<const T extends ValueType>(description: string, types: readonly T[]): TUnion<TLiteral<T>[]>;
export function valueTypeSetting(
  description: string,
  types: readonly ValueType[] = ['S', 'B', 'I', 'F', 'T'],
): TUnion<TLiteral<ValueType>[]> {
  return Type.Union(
    types.map((type) => Type.Literal(type)),
    { description },
  );
}

/**
 * Origins (`scheme://host[:port]`) of web pages a server of the hub lets in beside its own
 * (CORS, a WebSocket's `Origin`): the rest-api's `allowedOrigins`, the OSCQuery server's
 * `origins`. Checked as the server compares them: no path, no query.
 */
export function originsSetting(description: string): TArray<TString> {
  return Type.Array(Type.String({ pattern: '^https?://[^/?#\\s]+$' }), { description });
}

/**
 * Host names (without port) clients use for a server of the hub, besides IP addresses,
 * localhost and the machine's own names: requests to any other name are refused (DNS
 * rebinding). Each a name of DNS labels.
 */
export function hostnamesSetting(description: string): TArray<TString> {
  return Type.Array(Type.String({ pattern: '^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$' }), {
    description,
  });
}
