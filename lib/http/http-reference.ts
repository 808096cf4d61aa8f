/**
 * The table of requests in docs/reference/http.md, made from the descriptions the routes are
 * declared with, as the OpenAPI description is (R-DS1): `npm run docs` writes it,
 * `spec/http/descriptions.spec.ts` fails while it is stale.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedOf, withGenerated } from '../core/generated-part.ts';
import { statusOf } from '../core/errors.ts';
import { operationsOf } from './route.ts';
import { servedRoutes } from './routes.ts';

export const httpReferenceFile = fileURLToPath(new URL('../../docs/reference/http.md', import.meta.url));

/** A cell of a Markdown table: pipes kept as text. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The table: each operation as a request line and what it answers, with the codes of its errors. */
export function requestsTable(): string {
  const rows = [...operationsOf(servedRoutes)].map(({ path, method, operation }) => {
    const shown = operation.variable ? path.replace(/\*$|:[a-z]+/, `<${operation.variable.name}>`) : path;
    const query = Object.entries(operation.query ?? {})
      .filter(([name]) => name !== 'access_token')
      .map(([name, q]) => `${name}=<${name}>${q.repeats ? '…' : ''}`);
    const request = `\`${method.toUpperCase()} ${shown}${query.length > 0 ? `?${query.join('&')}` : ''}\``;
    const errors = [...operation.errors]
      .sort((a, b) => statusOf(a) - statusOf(b))
      .map((code) => `${statusOf(code)} \`${code}\``)
      .join(', ');
    return `| ${cell(request)} | ${cell(operation.description)}${errors ? ` Errors: ${cell(errors)}.` : ''} |`;
  });
  return ['| request | answer |', '|---|---|', ...rows].join('\n');
}

export const httpReferencePart = () => ({ title: 'HTTP and WebSocket', generated: requestsTable() });

/** Whether the page holds the table as the routes' descriptions make it. */
export const httpReferenceCurrent = () =>
  existsSync(httpReferenceFile) && generatedOf(readFileSync(httpReferenceFile, 'utf8')) === requestsTable();

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const before = readFileSync(httpReferenceFile, 'utf8');
  const after = withGenerated(before, httpReferencePart());
  if (after !== before) {
    writeFileSync(httpReferenceFile, after);
    console.log('wrote docs/reference/http.md');
  } else console.log('the HTTP reference is up to date');
}
