/** Reading Prometheus' text exposition format, as a scrape sees it. */

/** The value of one series by its exact labels; undefined when the series is absent. */
export function sample(
  text: string,
  name: string,
  labels: Record<string, string>,
): number | undefined {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(',');
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = (m[2] ?? '')
      .split(/,(?=[a-z_]+=")/)
      .filter(Boolean)
      .sort()
      .join(',');
    if (have === wanted) return Number(m[3]);
  }
  return undefined;
}

/**
 * Every series name the text declares (`# TYPE`), with or without samples: a histogram's
 * `_bucket`, `_sum` and `_count`, a summary's `_sum` and `_count`.
 */
export function declaredNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const m = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (!m) continue;
    const [, name, type] = m;
    names.add(name);
    if (type === 'histogram') names.add(`${name}_bucket`);
    if (type === 'histogram' || type === 'summary') {
      names.add(`${name}_sum`);
      names.add(`${name}_count`);
    }
  }
  return names;
}
