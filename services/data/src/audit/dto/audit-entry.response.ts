import {
  ADMIN_ACTIONS,
  AUDIT_TARGET_TYPES,
  type AdminActionName,
  type AuditTargetType,
} from '@shop/contracts';
import { ApiProperty } from '@nestjs/swagger';

export class AuditTargetResponse {
  @ApiProperty({ enum: AUDIT_TARGET_TYPES }) type!: AuditTargetType;
  @ApiProperty({ description: 'The record acted on' }) id!: string;
  @ApiProperty({ description: 'A product name, an e-mail, a payment method, an order' }) label!: string;
}

const FIELD_VALUES = {
  type: 'object',
  additionalProperties: true,
  nullable: true,
} as const;

/** One admin action as the audit trail answers it: the source of the contract type `AuditEntry`. */
export class AuditEntryResponse {
  @ApiProperty({ description: "The entry's id (the id of the event it was written from)" }) _id!: string;
  @ApiProperty({ description: 'The admin who acted (their user id)' }) actorId!: string;
  @ApiProperty({ enum: ADMIN_ACTIONS }) action!: AdminActionName;
  @ApiProperty({ type: AuditTargetResponse }) target!: AuditTargetResponse;
  @ApiProperty({
    ...FIELD_VALUES,
    description: 'The changed fields before; null when the action created the record',
  })
  before!: Record<string, unknown> | null;
  @ApiProperty({
    ...FIELD_VALUES,
    description: 'The changed fields after; null when the action deleted the record',
  })
  after!: Record<string, unknown> | null;
  @ApiProperty({ format: 'date-time', description: 'When the action took effect' }) at!: string;
}
