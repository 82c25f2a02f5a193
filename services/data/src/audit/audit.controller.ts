import { Controller, Get, Query, Res } from '@nestjs/common';
import type { AuditEntry } from '@shop/contracts';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly, type HeaderReply, TOTAL_COUNT_HEADERS, withTotalCount } from '@shop/service-kit';
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
  @ApiOkResponse({ type: [AuditEntryResponse], headers: TOTAL_COUNT_HEADERS })
  async list(
    @Query() query: ListAuditQuery,
    @Res({ passthrough: true }) reply: HeaderReply,
  ): Promise<AuditEntry[]> {
    const { entries, total } = await this.audit.list(query);
    return withTotalCount(reply, entries, total);
  }
}
