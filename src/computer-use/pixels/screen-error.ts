import { DomainError } from '../../common/domain-error';

/** A screenshot Warden cannot use: not a PNG, damaged, cut off, or too large to decode. */
export class ScreenError extends DomainError {
  constructor(message: string) {
    super('invalid', message);
    this.name = 'ScreenError';
  }
}
