import { IsString, Matches, MaxLength } from 'class-validator';
import { BOUNDS, FINGERPRINT_PATTERN } from '../config-bounds';
import { decorateFields, type FieldTable, type IntField } from '../field-table';

/**
 * The parts of an agent that are objects of their own: a rectangle (`ignore_regions`,
 * `redact_regions`) and how the screen host's certificate is trusted (`screen_tls`). parse-config.ts
 * checks each with its class, so an error names its path.
 */

const coordinate = (min: number): IntField<number> => ({
  kind: 'int',
  required: true,
  min,
  max: BOUNDS.coordinate,
  showBounds: 'min',
});

export const RECT_FIELD_SPECS = {
  x: coordinate(0),
  y: coordinate(0),
  width: coordinate(1),
  height: coordinate(1),
} satisfies FieldTable;

export class RectDto {
  x: number;
  y: number;
  width: number;
  height: number;
}
decorateFields(RectDto, RECT_FIELD_SPECS);

export const SCREEN_TLS_FIELD_SPECS = {
  fingerprint_sha256: {
    kind: 'other',
    type: String,
    read: 'own',
    doc: {
      description: 'SHA-256 of the DER certificate: 64 hex digits, colons between pairs optional',
      example: '3f:a2:…',
    },
    checks: [
      IsString(),
      Matches(FINGERPRINT_PATTERN, {
        message:
          'fingerprint_sha256 must be the SHA-256 of the certificate: 64 hex digits, with or without colons between pairs',
      }),
    ],
  },
  ca_file: {
    kind: 'other',
    type: String,
    read: 'own',
    doc: { description: 'absolute path to a PEM file of CA certificates' },
    checks: [
      IsString(),
      Matches(/^\/[^\0]*$/, { message: 'ca_file must be an absolute path' }),
      MaxLength(BOUNDS.ca_file),
    ],
  },
} satisfies FieldTable;

/** Exactly one of the two. Left out: the system's CAs. */
export class ScreenTlsDto {
  fingerprint_sha256?: string;
  ca_file?: string;
}
decorateFields(ScreenTlsDto, SCREEN_TLS_FIELD_SPECS);

export const SCREEN_TLS_FIELDS: readonly string[] = Object.keys(SCREEN_TLS_FIELD_SPECS);
export const RECT_FIELDS: readonly string[] = Object.keys(RECT_FIELD_SPECS);
