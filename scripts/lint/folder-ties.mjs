// Reads dependency-cruiser's JSON (stdin) and fails on a knot of folders:
// - no cycle among the folders of src/ (`src/<name>/`, each with all its subfolders), specs
//   included: of every two folders, at most one depends on the other, however indirectly;
// - no two feature folders import each other, where a feature folder is `src/<name>/` or
//   `src/computer-use/<name>/` with its subfolders (dto/, oidc/ …); here tests (`*.spec.ts`) are
//   left out: they may reach across.
// One way between two folders keeps the house in floors: what both sides need moves below both.
// dependency-cruiser's own folder scope (.dependency-cruiser.cjs) sees each directory apart from its
// subfolders, so it cannot see a knot of whole folders: this script does.
import { text } from 'node:stream/consumers';

// Read as a stream: readFileSync(0) on the pipe from depcruise crashed Node 24.21 (SIGSEGV) in
// about one run of four on this machine; from a file, or read as a stream, never.
const result = JSON.parse(await text(process.stdin));

/** Imports from one folder into another: `from → to` → the module imports that make it. */
function tiesBetween(folderOf, { specs }) {
  const ties = new Map();
  for (const module of result.modules) {
    const from = folderOf(module.source);
    if (!from || (!specs && module.source.endsWith('.spec.ts'))) continue;
    for (const dependency of module.dependencies) {
      const to = folderOf(dependency.resolved);
      if (!to || to === from) continue;
      const key = `${from} → ${to}`;
      if (!ties.has(key)) ties.set(key, []);
      ties.get(key).push(`${module.source} → ${dependency.resolved}`);
    }
  }
  return ties;
}

/** The strongly connected components of more than one folder (Tarjan), each sorted. */
function knots(ties) {
  const next = new Map();
  for (const key of ties.keys()) {
    const [from, to] = key.split(' → ');
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    next.get(from).push(to);
  }
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, index.size);
    low.set(v, index.get(v));
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

const topFolder = (path) => {
  const m = /^src\/([^/]+)\//.exec(path);
  return m ? `src/${m[1]}` : null;
};
const featureOf = (path) => {
  const m = /^src\/(computer-use\/[^/]+|[^/]+)\//.exec(path);
  return m ? `src/${m[1]}` : null;
};

let errors = 0;
const folderTies = tiesBetween(topFolder, { specs: true });
for (const knot of knots(folderTies)) {
  errors += 1;
  console.error(`error folder-cycle: ${knot.join(', ')} import each other, in a cycle:`);
  for (const from of knot) {
    for (const to of knot) {
      for (const line of folderTies.get(`${from} → ${to}`) ?? []) console.error(`    ${line}`);
    }
  }
}

const featureTies = tiesBetween(featureOf, { specs: false });
for (const [key, imports] of featureTies) {
  const [from, to] = key.split(' → ');
  const back = featureTies.get(`${to} → ${from}`);
  if (!back || from > to) continue;
  errors += 1;
  console.error(`error folder-tie: ${from} and ${to} import each other:`);
  for (const line of [...imports, ...back]) console.error(`    ${line}`);
}

if (errors > 0) {
  console.error(
    `\n${errors} folder cycles and two-way ties: move what both sides need into a folder below both`,
  );
  process.exit(1);
}
console.log(
  `✔ no folder cycles, no two-way folder ties (${folderTies.size} imports between folders of src/, ${featureTies.size} between feature folders)`,
);
