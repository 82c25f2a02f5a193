import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AUDIT_ENTRY_MODEL, auditEntrySchema } from './audit-entry.schema';
import { AuditController } from './audit.controller';
import { AuditService } from './audit.service';
import { AuditWriter } from './audit.writer';

/** The audit trail: written from every service's `admin.action` events, read by admins. */
@Module({
  imports: [MongooseModule.forFeature([{ name: AUDIT_ENTRY_MODEL, schema: auditEntrySchema }])],
  controllers: [AuditController],
  providers: [AuditService, AuditWriter],
})
export class AuditModule {}
