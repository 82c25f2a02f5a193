import {
  ADMIN_ACTIONS,
  AUDIT_LIST_LIMITS,
  AUDIT_TARGET_TYPES,
  type AdminActionName,
  type AuditTargetType,
} from '@shop/contracts';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { DecoratorStack, PagedQuery, QueryText } from '@shop/service-kit';

/** An optional filter of the trail to one of `values`. */
const OneOfFilter = (values: readonly string[], description: string): PropertyDecorator =>
  DecoratorStack(
    ApiPropertyOptional({ enum: values, description }),
    IsOptional(),
    QueryText(),
    IsIn(values, { message: `$property must be one of ${values.join(', ')}` }),
  );

/** An optional filter of the trail to one id. */
const IdFilter = (description: string): PropertyDecorator =>
  DecoratorStack(
    ApiPropertyOptional({ description }),
    IsOptional(),
    QueryText(),
    IsString({ message: '$property must be a single text' }),
    MaxLength(64, { message: '$property must be at most 64 characters' }),
  );

/** Query of `GET api/data/audit`: the source of the contract type `AuditListQuery`. */
export class ListAuditQuery extends PagedQuery(AUDIT_LIST_LIMITS.maxLimit) {
  @OneOfFilter(ADMIN_ACTIONS, 'Only this action')
  action?: AdminActionName;

  @OneOfFilter(AUDIT_TARGET_TYPES, 'Only actions on this kind of record')
  targetType?: AuditTargetType;

  @IdFilter('Only actions on this record (its id)')
  targetId?: string;

  @IdFilter("Only this admin's actions (their user id)")
  actorId?: string;
}
