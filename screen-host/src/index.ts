/** The screen host's programmatic API (see docs/screen-host.md). */
export { startScreenHost, MIN_TOKEN_LENGTH } from './host';
export type { StartScreenHostOptions, RunningScreenHost, BackendName, TlsOptions } from './host';
export { createCertificate, fingerprintOf } from './certificate';
export type { CreatedCertificate, CertificateOptions } from './certificate';
export type { ScreenBackend, OutlineElement, Rect, Screenshot } from './backends/backend';
export type { ScreenAction } from './actions';
export { checkAction } from './actions';
export { parseKey } from '@warden/protocol';
export type { SimEvent } from './backends/sim/sim-events';
