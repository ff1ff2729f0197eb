import { isPlainObject } from '../../common/is-plain-object';
import { LIMITS, type Rect, type ScreenTlsConfig } from './agent-config';
import { RECT_FIELDS, RectDto, SCREEN_TLS_FIELDS, ScreenTlsDto } from './dto/screen-parts.dto';
import { check, unknownFields } from './field-checks';

/** The screen's parts of an agent: how its host's TLS is checked, and its rectangles. */

export function parseScreenTls(
  raw: unknown,
  path: string,
  problems: string[],
): ScreenTlsConfig | null {
  if (raw === undefined || raw === null) return null;
  if (!isPlainObject(raw)) {
    problems.push(`${path} must be {"fingerprint_sha256": "…"} or {"ca_file": "/path/ca.pem"}`);
    return null;
  }
  const known = unknownFields(raw, SCREEN_TLS_FIELDS, path, 'screen_tls', problems);
  const given = SCREEN_TLS_FIELDS.filter((f) => known[f] !== undefined && known[f] !== null);
  if (given.length !== 1) {
    problems.push(`${path} must have exactly one of fingerprint_sha256 or ca_file`);
    return null;
  }
  const before = problems.length;
  const dto = check(ScreenTlsDto, known, path, problems);
  if (problems.length > before) return null;
  if (dto.fingerprint_sha256 !== undefined) {
    // The screen host prints it this way, and the TLS check compares it this way.
    return { fingerprint_sha256: dto.fingerprint_sha256.replace(/:/g, '').toLowerCase() };
  }
  return { ca_file: dto.ca_file! };
}

export function parseRegions(raw: unknown, path: string, problems: string[]): Rect[] {
  // Its type and count (ignore_regions and redact_regions have one bound) are the DTO's to refuse.
  if (!Array.isArray(raw) || raw.length > LIMITS.ignore_regions) return [];
  const regions: Rect[] = [];
  raw.forEach((item, i) => {
    const here = `${path}.${i}`;
    if (!isPlainObject(item)) {
      problems.push(`${here} must be a rectangle {x, y, width, height}`);
      return;
    }
    const known = unknownFields(item, RECT_FIELDS, here, 'a rectangle', problems);
    const before = problems.length;
    const dto = check(RectDto, known, here, problems);
    if (problems.length === before) {
      regions.push({ x: dto.x, y: dto.y, width: dto.width, height: dto.height });
    }
  });
  return regions;
}
