/** Says in words what a JSON Schema accepts: the "expected …" half of a flow-file error. */
export function describeExpected(schema: Record<string, unknown>): string {
  if (typeof schema['expected'] === 'string') return schema['expected'];
  if ('const' in schema) return JSON.stringify(schema['const']);
  if (Array.isArray(schema['enum'])) return `one of ${schema['enum'].map((v) => JSON.stringify(v)).join(', ')}`;
  const anyOf = schema['anyOf'];
  if (Array.isArray(anyOf) && anyOf.every((branch) => typeof branch === 'object' && branch !== null && 'const' in branch)) {
    return `one of ${anyOf.map((branch: { const: unknown }) => JSON.stringify(branch.const)).join(', ')}`;
  }
  if (Array.isArray(anyOf)) return (schema['anyOf'] as Record<string, unknown>[]).map(describeExpected).join(' or ');
  const min = schema['minimum'] as number | undefined;
  const max = schema['maximum'] as number | undefined;
  switch (schema['type']) {
    case 'integer':
      return `an integer${range(min, max)}`;
    case 'number':
      return `a number${range(min, max)}`;
    case 'boolean':
      return 'true or false';
    case 'string': {
      if (typeof schema['pattern'] === 'string') return `a string matching /${schema['pattern']}/`;
      const least = schema['minLength'] as number | undefined;
      const most = schema['maxLength'] as number | undefined;
      if (least === 1 && most === undefined) return 'a non-empty string';
      return `a string${count(least, most, 'character', 'characters')}`;
    }
    case 'array': {
      const items = schema['items'] as Record<string, unknown> | undefined;
      const each = items && typeof items['type'] === 'string' && items['type'] !== 'object' ? `, each ${describeExpected(items)}` : '';
      return `a list${count(schema['minItems'] as number | undefined, schema['maxItems'] as number | undefined, 'entry', 'entries')}${each}`;
    }
    case 'object': {
      // What sets one object apart from another in a choice: a key source is `{ file }` or `{ env }`.
      const required = (schema['required'] as string[] | undefined) ?? [];
      return required.length === 0 ? 'an object' : `an object with ${required.map((key) => `"${key}"`).join(' and ')}`;
    }
    default:
      return 'a valid value';
  }
}

/** " of 1 to 64 entries", " of at least 1 entry", " of at most 255 characters", or "" (a lower bound of 0 says nothing). */
function count(least: number | undefined, most: number | undefined, one: string, many: string): string {
  const least1 = least ? least : undefined;
  if (least1 !== undefined && most !== undefined) return ` of ${least1} to ${most} ${most === 1 ? one : many}`;
  if (least1 !== undefined) return ` of at least ${least1} ${least1 === 1 ? one : many}`;
  return most !== undefined ? ` of at most ${most} ${most === 1 ? one : many}` : '';
}

function range(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}`;
  if (min !== undefined) return ` of at least ${min}`;
  return max !== undefined ? ` of at most ${max}` : '';
}
