// Warden runs on the Node.js pinned in package.json (devDependencies.node); npm scripts and npx put
// it first on PATH (node_modules/.bin/node). A run on an older node stops here, not halfway.
const pinned = require('./package.json').devDependencies.node;
const major = pinned.split('.')[0];
if (Number(process.versions.node.split('.')[0]) < Number(major)) {
  throw new Error(
    `Warden's tests need Node.js ${major} or newer (package.json pins ${pinned}), this is ` +
      `${process.version}: start them with npm test or npx jest, which use node_modules/.bin/node`,
  );
}

// Tests stay CommonJS; swc compiles TypeScript and the ESM-only packages (NestJS 12 and friends)
// to CommonJS on the fly. Jest 30 can require ESM natively on Node 24, but only with Node's
// experimental --experimental-vm-modules (vm.SourceTextModule), which every jest and npx jest
// command would then need in NODE_OPTIONS; this list is simpler.
const swcTs = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];
const swcJs = ['@swc/jest', { module: { type: 'commonjs' } }];
const esmOnly = [
  '@nestjs',
  'file-type',
  'strtok3',
  'token-types',
  '@tokenizer',
  'uint8array-extras',
  '@borewit',
  'content-disposition',
  'cookie',
  'openid-client',
  'oauth4webapi',
  'jose',
];
const base = {
  transform: { '^.+\\.ts$': swcTs, '^.+\\.m?js$': swcJs },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  // The protocol package from its TypeScript source, as tsconfig.json's `paths` says (no build needed).
  moduleNameMapper: {
    '^@warden/protocol$': '<rootDir>/packages/protocol/src/index.ts',
    // The console's browser code imports single files of it (scripts/build-console.ts bundles them).
    '^@warden/protocol/(.*)$': '<rootDir>/packages/protocol/src/$1',
    '^@warden/client$': '<rootDir>/packages/client/src/index.ts',
  },
  testEnvironment: 'node',
};

/** @type {import('jest').Config} */
module.exports = {
  // Two test files at a time even on a 2-core machine (Jest's default there is one): most of an
  // e2e suite's time is waiting (on processes, hosts, queues and timers), and the whole run took
  // 30 min instead of 51 with two (both measured at load average ~10, 2026-12-06). Each file keeps
  // its own databases, queue prefix, ports and X display, so two never share state.
  maxWorkers: Math.max(2, require('node:os').availableParallelism() - 1),
  // e2e tests start processes, databases and browsers; a unit test that waits this long is broken anyway.
  testTimeout: 60000,
  projects: [
    {
      ...base,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/src/**/*.spec.ts',
        '<rootDir>/packages/protocol/src/**/*.spec.ts',
        '<rootDir>/screen-host/src/**/*.spec.ts',
        '<rootDir>/evals/**/*.spec.ts',
        '<rootDir>/scripts/**/*.spec.ts',
      ],
    },
    {
      ...base,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts', '<rootDir>/screen-host/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/global-setup.ts',
      globalTeardown: '<rootDir>/test/global-teardown.ts',
    },
  ],
};
