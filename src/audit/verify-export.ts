import { isPlainObject } from '../common/is-plain-object';
import { type ChainLink, ChainWalk, type VerifyResult } from './audit-chain';

/** What checking an export found: the chain's verdict, the tenant, and why a line was not read. */
export interface ExportVerifyResult extends VerifyResult {
  tenant: string | null;
  /** Set when the file itself is the problem (a line that is no event, another tenant, empty). */
  problem?: string;
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Checks an NDJSON export of one tenant's whole chain (`GET /api/audit` with `Accept:
 * application/x-ndjson` and no filter), one event a line, with the same walk as `GET
 * /api/audit/verify`: needs no database, so an auditor can check the file alone. Its `head_sha256`
 * is the API's when nothing was changed or left out since. A filtered or cut export does not start
 * at seq 1 or has a gap, and so does not verify.
 */
export async function verifyExport(lines: AsyncIterable<string>): Promise<ExportVerifyResult> {
  const walk = new ChainWalk();
  let tenant: string | null = null;
  let n = 0;
  const stop = (problem: string): ExportVerifyResult => ({
    ...walk.result(),
    ok: false,
    tenant,
    problem,
  });
  for await (const line of lines) {
    n += 1;
    if (line.trim() === '') continue;
    const link = chainLink(line);
    if (typeof link === 'string') return stop(`line ${n} is not an audit event: ${link}`);
    tenant ??= link.tenant;
    if (link.tenant !== tenant) {
      return stop(`line ${n} is an event of tenant ${link.tenant}, the file began with ${tenant}`);
    }
    if (!walk.next(link)) return { ...walk.result(), tenant };
  }
  if (tenant === null) return stop('the file holds no events');
  return { ...walk.result(), tenant };
}

/** One export line as the link it is, or what is wrong with it. */
function chainLink(line: string): ChainLink | string {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  if (!isPlainObject(raw)) return 'not a JSON object';
  const text = (name: string) => typeof raw[name] === 'string';
  const intOrNull = (name: string) => raw[name] === null || Number.isSafeInteger(raw[name]);
  for (const name of ['id', 'tenant', 'type', 'actor', 'at']) {
    if (!text(name)) return `${name} must be a string`;
  }
  if (!Number.isSafeInteger(raw.seq)) return 'seq must be an integer';
  if (!(raw.run_id === null || text('run_id'))) return 'run_id must be a string or null';
  if (!intOrNull('step')) return 'step must be an integer or null';
  if (!isPlainObject(raw.details)) return 'details must be an object';
  for (const name of ['prev_sha256', 'sha256']) {
    if (!SHA256.test(String(raw[name]))) return `${name} must be 64 hex digits`;
  }
  const at = new Date(raw.at as string);
  if (Number.isNaN(at.getTime()) || at.toISOString() !== raw.at) {
    return 'at must be a time as the export writes it (ISO 8601, UTC, milliseconds)';
  }
  return {
    id: raw.id as string,
    tenant: raw.tenant as string,
    seq: raw.seq as number,
    type: raw.type as string,
    actor: raw.actor as string,
    runId: raw.run_id as string | null,
    step: raw.step as number | null,
    at,
    details: raw.details,
    prevSha256: raw.prev_sha256 as string,
    sha256: raw.sha256 as string,
  };
}
