/** A hub's `/metrics` text, for benches that read its counters and gauges. */
export async function hubMetrics(port: number): Promise<string> {
  return (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
}

/** The value of the first sample of `name` (with or without labels) in a `/metrics` text; NaN when absent. */
export function metricValue(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : Number.NaN;
}
