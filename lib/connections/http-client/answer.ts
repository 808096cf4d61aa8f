/**
 * An answer to a request: read within `maxBodyBytes` (R-G4), then put into the request's
 * parameters — its status, its body, and the values `extract` points at.
 */
import { type OwnedParameter, resolvePointer } from '../../sdk/index.ts';
import { Failure } from './failure.ts';
import type { Request } from './settings.ts';

/** Reads at most `maxBodyBytes` of the answer: past it, the rest is not read. */
export async function readBody(response: Response, controller: AbortController, maxBodyBytes: number): Promise<string> {
  if (!response.body) return '';
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBodyBytes) {
    controller.abort();
    throw new Failure('PB_OVER_LIMIT', `the answer has ${declared} bytes, more than maxBodyBytes (${maxBodyBytes})`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBodyBytes) {
      controller.abort();
      throw new Failure('PB_OVER_LIMIT', `the answer has more than maxBodyBytes (${maxBodyBytes})`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Reports the answer's status and body; fails on a status of 400 or more, or on a value `extract` did not find. */
export function answered(request: Request, status: number, body: string, parameters: ReadonlyMap<string, OwnedParameter>): void {
  parameters.get(`${request.id}/status`)?.report(status);
  parameters.get(`${request.id}/body`)?.report(body);
  if (status >= 400) throw new Failure('PB_BAD_ANSWER', `answered ${status}`);
  if (request.extracts.length === 0) return;
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch {
    throw new Failure('PB_BAD_ANSWER', `the answer is not JSON, so nothing could be extracted (${body.length} characters)`);
  }
  const missing: string[] = [];
  for (const extract of request.extracts) {
    const found = resolvePointer(document, extract.tokens);
    const parameter = parameters.get(`${request.id}/${extract.name}`);
    if (found === undefined || found === null || !parameter) {
      missing.push(extract.name);
      continue;
    }
    const raw = extract.type === 'S' && typeof found === 'object' ? JSON.stringify(found) : found;
    const reported = parameter.report(raw);
    if (!reported.ok) missing.push(`${extract.name} (${reported.error.message})`);
  }
  if (missing.length > 0) throw new Failure('PB_BAD_ANSWER', `nothing to extract for ${missing.join(', ')}`);
}
