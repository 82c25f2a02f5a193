import { type ArgumentMetadata, BadRequestException, ValidationPipe } from '@nestjs/common';
import type { ValidationError } from 'class-validator';

/** Constraints that say a field is missing: when one fails, the field's other rules add nothing. */
const PRESENCE_CONSTRAINTS = ['isDefined', 'isNotEmpty'] as const;

/**
 * Keeps only the "is required" message of a field that is missing, so a shopper who left a field
 * out reads one sentence about it rather than every rule a missing value also breaks. A field that
 * is present but wrong still reports each rule it breaks.
 */
function keepPresenceFailuresOnly(errors: ValidationError[]): ValidationError[] {
  return errors.map((error) => {
    const presence = PRESENCE_CONSTRAINTS.find((key) => error.constraints?.[key] !== undefined);
    return {
      ...error,
      constraints:
        presence && error.constraints ? { [presence]: error.constraints[presence]! } : error.constraints,
      children: error.children && keepPresenceFailuresOnly(error.children),
    };
  });
}

export const BODY_NOT_OBJECT_MESSAGE = 'The request body must be a JSON object';

/** The pipe every service validates bodies, queries and params with (see `requestValidationPipe`). */
export class RequestValidationPipe extends ValidationPipe {
  /** A body described by a DTO must be an object: `null`, an array or a bare value is a 400. */
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const describedByDto = metadata.type === 'body' && typeof metadata.metatype === 'function';
    if (describedByDto && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      throw new BadRequestException(BODY_NOT_OBJECT_MESSAGE);
    }
    return super.transform(value, metadata);
  }

  protected override flattenValidationErrors(validationErrors: ValidationError[]): string[] {
    return super.flattenValidationErrors(keepPresenceFailuresOnly(validationErrors));
  }
}
