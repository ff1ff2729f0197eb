// Reads dependency-cruiser's JSON (stdin) and fails when two feature folders import each other.
// A feature folder is `src/<name>/` or `src/computer-use/<name>/`, with its subfolders (dto/,
// oidc/ …) counted as part of it. Tests (`*.spec.ts`) are left out: they may reach across.
// One way between two folders keeps the house in floors: what both sides need moves below both.
import { text } from 'node:stream/consumers';

// Read as a stream: readFileSync(0) on the pipe from depcruise crashed Node 24.21 (SIGSEGV) in
// about one run of four on this machine; from a file, or read as a stream, never.
const result = JSON.parse(await text(process.stdin));
const featureOf = (path) => {
  const m = /^src\/(computer-use\/[^/]+|[^/]+)\//.exec(path);
  return m ? `src/${m[1]}` : null;
};
const ties = new Map();
for (const module of result.modules) {
  const from = featureOf(module.source);
  if (!from || module.source.endsWith('.spec.ts')) continue;
  for (const dependency of module.dependencies) {
    const to = featureOf(dependency.resolved);
    if (!to || to === from) continue;
    const key = `${from} → ${to}`;
    if (!ties.has(key)) ties.set(key, []);
    ties.get(key).push(`${module.source} → ${dependency.resolved}`);
  }
}
const found = [];
for (const [key, imports] of ties) {
  const [from, to] = key.split(' → ');
  const back = ties.get(`${to} → ${from}`);
  if (back && from < to) found.push({ from, to, imports: [...imports, ...back] });
}
for (const tie of found) {
  console.error(`error folder-tie: ${tie.from} and ${tie.to} import each other:`);
  for (const line of tie.imports) console.error(`    ${line}`);
}
if (found.length > 0) {
  console.error(
    `\n${found.length} two-way folder ties: move what both sides need into a folder below both`,
  );
  process.exit(1);
}
console.log(`✔ no two-way folder ties (${ties.size} folder-to-folder imports)`);
