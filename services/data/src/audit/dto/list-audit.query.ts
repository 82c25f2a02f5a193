import {
  ADMIN_ACTIONS,
  AUDIT_LIST_LIMITS,
  AUDIT_TARGET_TYPES,
  type AdminActionName,
  type AuditTargetType,
} from '@shop/contracts';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PagedQuery, QueryText } from '@shop/service-kit';

/** Query of `GET api/data/audit`: the source of the contract type `AuditListQuery`. */
export class ListAuditQuery extends PagedQuery(AUDIT_LIST_LIMITS.maxLimit) {
  @ApiPropertyOptional({ enum: ADMIN_ACTIONS, description: 'Only this action' })
  @IsOptional()
  @QueryText()
  @IsIn(ADMIN_ACTIONS, { message: `action must be one of ${ADMIN_ACTIONS.join(', ')}` })
  action?: AdminActionName;

  @ApiPropertyOptional({ enum: AUDIT_TARGET_TYPES, description: 'Only actions on this kind of record' })
  @IsOptional()
  @QueryText()
  @IsIn(AUDIT_TARGET_TYPES, { message: `targetType must be one of ${AUDIT_TARGET_TYPES.join(', ')}` })
  targetType?: AuditTargetType;

  @ApiPropertyOptional({ description: 'Only actions on this record (its id)' })
  @IsOptional()
  @QueryText()
  @IsString({ message: 'targetId must be a single text' })
  @MaxLength(64, { message: 'targetId must be at most 64 characters' })
  targetId?: string;

  @ApiPropertyOptional({ description: "Only this admin's actions (their user id)" })
  @IsOptional()
  @QueryText()
  @IsString({ message: 'actorId must be a single text' })
  @MaxLength(64, { message: 'actorId must be at most 64 characters' })
  actorId?: string;
}
