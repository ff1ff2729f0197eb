/**
 * What an integrator built against one API document and loses in the next: an operation gone, a
 * schema or a field of one gone, an enum value gone, a type changed, a parameter gone, and what a
 * request must now carry that it did not (a field newly required in a body, a parameter newly
 * required). Compared by place in the document (the same JSON path in both), so it holds for
 * components and for schemas written inline alike; where a place refers to another schema than it
 * did (or refers where it was written inline), the schemas it stands for are compared there.
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
  for (const [path, methods] of Object.entries(now)) {
    if (!isObject(methods)) continue;
    for (const method of Object.keys(methods).filter((m) => HTTP_METHODS.has(m))) {
      const before = paths(released)[path];
      const operation = `${method.toUpperCase()} ${path}`;
      if (isObject(before) && isObject(before[method])) {
        parameterChanges(before[method], methods[method], operation, problems);
      }
    }
  }
  // A generated client names its types after the schemas: a schema gone is a type gone.
  const kept = schemasOf(current);
  for (const name of Object.keys(schemasOf(released))) {
    if (!(name in kept)) problems.push(`schema removed: ${name}`);
  }
  const walker: Walker = {
    released,
    current,
    requestSchemas: requestSchemas(current),
    problems,
    compared: new Set(),
  };
  walk(walker, released, current, [], false);
  return problems;
}

/** The major of a version `MAJOR.MINOR.PATCH`; NaN for anything else. */
export function majorOf(document: unknown): number {
  const version = isObject(document) && isObject(document.info) ? document.info.version : null;
  const match = typeof version === 'string' ? /^(\d+)\./.exec(version) : null;
  return match ? Number(match[1]) : NaN;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

interface Walker {
  released: unknown;
  current: unknown;
  /** The component schemas a request body of the current document reaches. */
  requestSchemas: Set<string>;
  problems: string[];
  /** Pairs of references already compared (schemas refer to themselves). */
  compared: Set<string>;
}

/**
 * `at` is where `before` sits in the released document; `request` whether what is there describes
 * something a client sends (a body, a parameter), where a newly required field breaks it.
 */
function walk(w: Walker, before: unknown, after: unknown, at: string[], request: boolean): void {
  if (Array.isArray(before) || !isObject(before)) return;
  let here = isObject(after) ? after : undefined;
  const [refBefore, refAfter] = [before.$ref, here?.$ref];
  if (typeof refBefore === 'string' || typeof refAfter === 'string') {
    if (refBefore === refAfter) return; // the same component: compared where it is defined
    const pair = `${String(refBefore)} → ${String(refAfter)}`;
    if (w.compared.has(pair)) return;
    w.compared.add(pair);
    const resolvedBefore = typeof refBefore === 'string' ? resolve(w.released, refBefore) : before;
    const resolvedAfter = typeof refAfter === 'string' ? resolve(w.current, refAfter) : here;
    walk(w, resolvedBefore, resolvedAfter, at, request);
    return;
  }
  const name = componentAt(at);
  const inRequest = request || (name !== null && w.requestSchemas.has(name));
  const where = (...rest: string[]) => [...at, ...rest].join('/');
  if (here && typeof before.type === 'string' && typeof here.type === 'string') {
    if (before.type !== here.type) {
      w.problems.push(`type changed: ${before.type} → ${here.type} at ${where('type')}`);
      here = undefined; // nothing below a changed type is the same field
    }
  }
  if (isObject(before.properties)) {
    const kept = here && isObject(here.properties) ? here.properties : {};
    for (const field of Object.keys(before.properties)) {
      if (!(field in kept)) w.problems.push(`field removed: ${where('properties', field)}`);
    }
  }
  if (inRequest && here && Array.isArray(here.required)) {
    const was = new Set(Array.isArray(before.required) ? before.required : []);
    for (const field of here.required) {
      if (!was.has(field)) {
        w.problems.push(`field now required in a request: ${where('properties', String(field))}`);
      }
    }
  }
  if (Array.isArray(before.enum)) {
    const kept = new Set(here && Array.isArray(here.enum) ? here.enum : []);
    for (const value of before.enum) {
      if (!kept.has(value)) {
        w.problems.push(`enum value removed: ${JSON.stringify(value)} at ${where('enum')}`);
      }
    }
  }
  for (const [key, value] of Object.entries(before)) {
    if (key === 'enum' || key === 'example' || key === 'examples' || key === 'parameters') continue;
    const into = inRequest || key === 'requestBody';
    if (key === 'properties' && isObject(value)) {
      const kept = here && isObject(here.properties) ? here.properties : {};
      for (const [field, schema] of Object.entries(value)) {
        if (field in kept) walk(w, schema, kept[field], [...at, 'properties', field], into);
      }
      continue;
    }
    if (Array.isArray(value)) {
      const kept = here && Array.isArray(here[key]) ? (here[key] as unknown[]) : [];
      if (CHOICES.has(key)) {
        choiceChanges(w, value, kept, [...at, key], into);
        continue;
      }
      value.forEach((item, i) => walk(w, item, kept[i], [...at, key, String(i)], into));
      continue;
    }
    // Under a removed operation or schema only the removal itself is reported.
    if (here && key in here) walk(w, value, here[key], [...at, key], into);
  }
}

const CHOICES = new Set(['oneOf', 'anyOf']);

/**
 * The alternatives of a oneOf or anyOf are a set, not a list: each released one is compared with
 * the current one that stands for the same thing (the same reference, else the first unmatched of
 * the same type), and one with none is an alternative removed.
 */
function choiceChanges(
  w: Walker,
  before: unknown[],
  after: unknown[],
  at: string[],
  request: boolean,
): void {
  const taken = new Set<number>();
  const keyOf = (item: unknown) =>
    isObject(item) ? (typeof item.$ref === 'string' ? item.$ref : `type ${String(item.type)}`) : '';
  before.forEach((item, i) => {
    const j = after.findIndex((other, k) => !taken.has(k) && keyOf(other) === keyOf(item));
    if (j < 0) {
      w.problems.push(`alternative removed: ${keyOf(item)} at ${[...at, String(i)].join('/')}`);
      return;
    }
    taken.add(j);
    walk(w, item, after[j], [...at, String(i)], request);
  });
}

/**
 * Parameters by where and name, not by place in the list: one gone (a client sending it is
 * refused), one added or become required (a client not sending it is refused), and the schema of
 * each kept one.
 */
function parameterChanges(
  before: Record<string, unknown>,
  after: unknown,
  operation: string,
  problems: string[],
): void {
  const byKey = (op: unknown) =>
    new Map(
      (isObject(op) && Array.isArray(op.parameters) ? op.parameters : [])
        .filter(isObject)
        .map((p) => [`${String(p.in)} ${String(p.name)}`, p] as const),
    );
  const [was, now] = [byKey(before), byKey(after)];
  for (const key of was.keys()) {
    if (!now.has(key)) problems.push(`parameter removed: ${operation} ${key}`);
  }
  for (const [key, parameter] of now) {
    const old = was.get(key);
    if (parameter.required === true && old?.required !== true) {
      problems.push(`parameter now required: ${operation} ${key}`);
    }
    const schema = old && isObject(old.schema) ? old.schema : null;
    if (schema && isObject(parameter.schema)) {
      const enumWas = Array.isArray(schema.enum) ? schema.enum : [];
      const enumNow = new Set(Array.isArray(parameter.schema.enum) ? parameter.schema.enum : []);
      for (const value of enumWas) {
        if (!enumNow.has(value)) {
          problems.push(`enum value removed: ${JSON.stringify(value)} at ${operation} ${key}`);
        }
      }
    }
  }
}

function schemasOf(doc: unknown): Record<string, unknown> {
  return isObject(doc) && isObject(doc.components) && isObject(doc.components.schemas)
    ? doc.components.schemas
    : {};
}

/** `#/components/schemas/Name` in `doc`, or undefined. */
function resolve(doc: unknown, ref: string): unknown {
  const match = /^#\/components\/schemas\/([^/]+)$/.exec(ref);
  return match ? schemasOf(doc)[match[1]] : undefined;
}

/** The component schema `at` is the root of (`components/schemas/Name`), else null. */
function componentAt(at: string[]): string | null {
  return at.length === 3 && at[0] === 'components' && at[1] === 'schemas' ? at[2] : null;
}

/** Every component schema a request body of `doc` reaches, through references. */
function requestSchemas(doc: unknown): Set<string> {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    const ref = node.$ref;
    const name =
      typeof ref === 'string' ? /^#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1] : null;
    if (name && !found.has(name)) {
      found.add(name);
      visit(schemasOf(doc)[name]);
    }
    Object.values(node).forEach(visit);
  };
  const paths = isObject(doc) && isObject(doc.paths) ? doc.paths : {};
  for (const methods of Object.values(paths)) {
    if (!isObject(methods)) continue;
    for (const operation of Object.values(methods)) {
      if (isObject(operation)) visit(operation.requestBody);
    }
  }
  return found;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
