import { Controller, Get, Query } from '@nestjs/common';
import type { AuditEntry } from '@shop/contracts';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly, type Page, PagedList } from '@shop/service-kit';
import { AuditService } from './audit.service';
import { AuditEntryResponse } from './dto/audit-entry.response';
import { ListAuditQuery } from './dto/list-audit.query';

/**
 * The audit trail, read-only: no route of any service writes, edits or removes an entry (its one
 * writer is the `admin.action` consumer).
 */
@ApiTags('data')
@Controller('api/data')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get('audit')
  @AdminOnly()
  @ApiOperation({
    summary: 'What admins did, newest first, one page at a time (admins)',
    description:
      'Every admin action (products, stock, orders, users, wallets, site settings) with who, when, what and the changed fields before and after. The number of all matching entries is in X-Total-Count.',
  })
  @PagedList(AuditEntryResponse)
  list(@Query() query: ListAuditQuery): Promise<Page<AuditEntry>> {
    return this.audit.list(query);
  }
}
