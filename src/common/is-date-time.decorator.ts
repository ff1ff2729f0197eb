import { buildMessage, isISO8601, ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * An ISO 8601 date and time that JavaScript's Date reads too. class-validator's ISO 8601 is wider
 * than Date: `2026-W01`, `2026-01-01T10` and `20260101T000000Z` pass it and become an Invalid Date,
 * which PostgreSQL then refuses (a 500 for a bad query).
 */
export function IsDateTime(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isDateTime',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' &&
          isISO8601(value, { strict: true }) &&
          Number.isFinite(Date.parse(value)),
        defaultMessage: buildMessage(
          (each) =>
            `${each}$property must be an ISO 8601 date and time such as 2026-11-01T00:00:00Z`,
        ),
      },
    },
    options,
  );
}
