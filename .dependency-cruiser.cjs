/**
 * `npm run lint` checks that no module of the service, the protocol package or the screen host
 * imports itself through others (a cycle), type-only imports included; that no folder of src/ does
 * either, through its files (a folder-scoped cycle: dependency-cruiser sees each directory as it
 * is, so a knot of whole folders, each with its subfolders, is caught by
 * scripts/lint/folder-ties.mjs, run after it by `npm run lint:modules`); that the platform folders
 * never import computer-use; that the step engine is used only by the worker: runs, approvals and
 * the API never depend on it, nor on an approval's timers, which only the engine loads; that of
 * computer-use, pixels/ needs nothing else and ocr/ only pixels/ (their specs may reach across);
 * and that the console's browser code and the server keep apart (the console takes only types
 * of the typed client).
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'a module cycle: move what both sides need where both can depend on it',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      comment:
        'a folder of src/ imports itself through other folders: move what both sides need into a folder below both',
      scope: 'folder',
      from: { path: '^src/[^/]+$' },
      to: { circular: true },
    },
    {
      name: 'platform-never-imports-computer-use',
      severity: 'error',
      comment:
        'the platform (auth, audit, audit sinks, secrets, destinations, notifications, config, common) sits below computer use: what it needs of it comes through a port it defines (notifications/agent-channels.ts) or moves down',
      from: {
        path: '^src/(auth|audit|audit-sinks|secrets|destinations|notifications|config|common)/',
      },
      to: { path: '^src/computer-use/' },
    },
    {
      name: 'engine-only-from-the-worker',
      severity: 'error',
      comment: 'what the API and the engine share lives in runs/ or queue/, not in engine/',
      from: { path: '^src/', pathNot: '^src/(computer-use/engine/|worker\\.module\\.ts$)' },
      to: { path: '^src/computer-use/engine/' },
    },
    {
      name: 'console-browser-code-stands-alone',
      severity: 'error',
      comment:
        "the console's browser code (bundled by scripts/build-console.ts) imports only itself and the pure tables of packages/protocol",
      from: { path: '^src/console/browser/' },
      to: {
        pathNot:
          '^src/console/browser/|^packages/protocol/src/(char-names|actions|outline)\\.ts$|^packages/client/src/index\\.ts$',
      },
    },
    {
      name: 'console-browser-code-takes-only-types-of-the-client',
      severity: 'error',
      comment:
        "the console reads the API's answer types from the typed client (generated from the OpenAPI document); importing more than its types would bundle it",
      from: { path: '^src/console/browser/' },
      to: { path: '^packages/client/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'protocol-as-one-package',
      severity: 'error',
      comment:
        "import @warden/protocol, not its files: compiled code loads the package's dist/index.js (only the console's bundle takes single files)",
      from: { path: '^(src|screen-host/src)/', pathNot: '^src/console/browser/|\\.spec\\.ts$' },
      to: { path: '^packages/protocol/src/', pathNot: '^packages/protocol/src/index\\.ts$' },
    },
    {
      name: 'console-browser-code-only-in-the-browser',
      severity: 'error',
      comment: "the server never runs the console's browser code; only its specs import it",
      from: { path: '^src/', pathNot: '^src/console/browser/|\\.spec\\.ts$' },
      to: { path: '^src/console/browser/' },
    },
    {
      name: 'approval-timers-only-from-the-engine',
      severity: 'error',
      comment:
        "an approval's reminder and escalation run where the step queue is taken: only the engine (the worker) loads them",
      from: {
        path: '^src/',
        pathNot: '^src/computer-use/(engine/|approvals/approval-(timers|notices)[.])',
      },
      to: { path: '^src/computer-use/approvals/approval-(timers|notices)[.]' },
    },
    {
      name: 'pixels-need-nothing-of-computer-use',
      severity: 'error',
      comment:
        'pixels/ is pure pixel work (PNG, hashes, masks, comparisons): what it needs from elsewhere comes from @warden/protocol or src/common',
      from: { path: '^src/computer-use/pixels/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^src/computer-use/', pathNot: '^src/computer-use/pixels/' },
    },
    {
      name: 'ocr-needs-only-pixels',
      severity: 'error',
      comment: 'ocr/ reads text from pixels: of computer-use it may use pixels/ and nothing else',
      from: { path: '^src/computer-use/ocr/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^src/computer-use/', pathNot: '^src/computer-use/(ocr|pixels)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
