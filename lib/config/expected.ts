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
    case 'string':
      if (typeof schema['pattern'] === 'string') return `a string matching /${schema['pattern']}/`;
      return schema['minLength'] === 1 ? 'a non-empty string' : 'a string';
    case 'array': {
      const most = schema['maxItems'] as number | undefined;
      const least = schema['minItems'] as number | undefined;
      const items = schema['items'] as Record<string, unknown> | undefined;
      const each = items && typeof items['type'] === 'string' && items['type'] !== 'object' ? `, each ${describeExpected(items)}` : '';
      if (most !== undefined) return `a list of at most ${most} entries${each}`;
      return least ? `a list of at least ${least} entr${least === 1 ? 'y' : 'ies'}${each}` : `a list${each}`;
    }
    case 'object':
      return 'an object';
    default:
      return 'a valid value';
  }
}

function range(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}`;
  if (min !== undefined) return ` of at least ${min}`;
  return max !== undefined ? ` of at most ${max}` : '';
}
