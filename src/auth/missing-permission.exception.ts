import { DomainError } from '../common/domain-error';
import type { Permission } from './permission';

/** A 403 for a caller that holds none of the permissions the route asks for. */
export class MissingPermissionException extends DomainError {
  constructor(readonly anyOf: readonly Permission[]) {
    super('forbidden', `this needs the permission ${anyOf.join(' or ')}`);
  }
}
