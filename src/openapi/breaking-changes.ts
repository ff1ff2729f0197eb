/**
 * What an integrator built against one API document and loses in the next: an operation gone, a
 * schema or a field of one gone, an enum value gone. Compared by place in the document (the same
 * JSON path in both), so it holds for components and for schemas written inline alike; a
 * reference that now points at another schema is compared by neither.
 */
export function breakingChanges(released: unknown, current: unknown): string[] {
  const problems: string[] = [];
  const paths = (doc: unknown) => (isObject(doc) && isObject(doc.paths) ? doc.paths : {});
  const now = paths(current);
  for (const [path, methods] of Object.entries(paths(released))) {
    if (!isObject(methods)) continue;
    for (const method of Object.keys(methods).filter((m) => HTTP_METHODS.has(m))) {
      const kept = now[path];
      if (!isObject(kept) || !(method in kept)) {
        problems.push(`operation removed: ${method.toUpperCase()} ${path}`);
      }
    }
  }
  // A generated client names its types after the schemas: a schema gone is a type gone.
  const schemas = (doc: unknown) =>
    isObject(doc) && isObject(doc.components) && isObject(doc.components.schemas)
      ? doc.components.schemas
      : {};
  const kept = schemas(current);
  for (const name of Object.keys(schemas(released))) {
    if (!(name in kept)) problems.push(`schema removed: ${name}`);
  }
  walk(released, current, [], problems);
  return problems;
}

/** The major of a version `MAJOR.MINOR.PATCH`; NaN for anything else. */
export function majorOf(document: unknown): number {
  const version = isObject(document) && isObject(document.info) ? document.info.version : null;
  const match = typeof version === 'string' ? /^(\d+)\./.exec(version) : null;
  return match ? Number(match[1]) : NaN;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

function walk(before: unknown, after: unknown, at: string[], problems: string[]): void {
  if (Array.isArray(before) || !isObject(before)) return;
  const here = isObject(after) ? after : undefined;
  if (isObject(before.properties)) {
    const kept = here && isObject(here.properties) ? here.properties : {};
    for (const name of Object.keys(before.properties)) {
      if (!(name in kept)) problems.push(`field removed: ${[...at, 'properties', name].join('/')}`);
    }
  }
  if (Array.isArray(before.enum)) {
    const kept = new Set(here && Array.isArray(here.enum) ? here.enum : []);
    for (const value of before.enum) {
      if (!kept.has(value)) {
        problems.push(
          `enum value removed: ${JSON.stringify(value)} at ${[...at, 'enum'].join('/')}`,
        );
      }
    }
  }
  for (const [key, value] of Object.entries(before)) {
    if (key === 'enum' || key === 'example' || key === 'examples') continue;
    if (key === 'properties' && isObject(value)) {
      const kept = here && isObject(here.properties) ? here.properties : {};
      for (const [name, schema] of Object.entries(value)) {
        if (name in kept) walk(schema, kept[name], [...at, 'properties', name], problems);
      }
      continue;
    }
    if (Array.isArray(value)) {
      const kept = here && Array.isArray(here[key]) ? (here[key] as unknown[]) : [];
      value.forEach((item, i) => walk(item, kept[i], [...at, key, String(i)], problems));
      continue;
    }
    // Under a removed operation or schema only the removal itself is reported.
    if (here && key in here) walk(value, here[key], [...at, key], problems);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
