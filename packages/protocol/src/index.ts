/**
 * @warden/protocol: what Warden and its screen host must agree on, defined once (docs/rules.md, docs/screen-host.md).
 * Pure and dependency-free (node:crypto and node:zlib only).
 */
export * from './actions';
export * from './keys';
export * from './text';
export * from './char-names';
export * from './frame-hash';
export * from './frame-precondition';
export * from './outline';
export * from './png-encoder';
