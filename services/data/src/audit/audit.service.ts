import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { AUDIT_LIST_LIMITS, type AuditEntry } from '@shop/contracts';
import { type Page, findPage, pageWindow } from '@shop/service-kit';
import type { Model, QueryFilter } from 'mongoose';
import { AUDIT_ENTRY_MODEL, type AuditEntryRecord } from './audit-entry.schema';
import type { ListAuditQuery } from './dto/list-audit.query';

const ENTRY_FIELDS = '_id actorId action target before after at';

/** Reads of the audit trail; nothing here or anywhere else changes an entry. */
@Injectable()
export class AuditService {
  constructor(@InjectModel(AUDIT_ENTRY_MODEL) private readonly entries: Model<AuditEntryRecord>) {}

  /** One page of the entries matching the query, newest first, and how many match in all. */
  async list(query: ListAuditQuery): Promise<Page<AuditEntry>> {
    const filter: QueryFilter<AuditEntryRecord> = {};
    if (query.action) filter.action = query.action;
    if (query.targetType) filter['target.type'] = query.targetType;
    // Record ids are stored in lower case (hex ids, typed in any case); a flag's key keeps its own.
    if (query.targetId)
      filter['target.id'] = { $in: [...new Set([query.targetId, query.targetId.toLowerCase()])] };
    if (query.actorId) filter.actorId = query.actorId.toLowerCase();
    const { docs, total } = await findPage<AuditEntryRecord>(this.entries, filter, {
      select: ENTRY_FIELDS,
      sort: { at: -1, _id: -1 },
      page: pageWindow(query.page, query.limit ?? AUDIT_LIST_LIMITS.defaultLimit),
    });
    return {
      total,
      items: docs.map((doc) => ({
        _id: doc._id,
        actorId: doc.actorId,
        action: doc.action,
        target: { type: doc.target.type, id: doc.target.id, label: doc.target.label },
        before: doc.before ?? null,
        after: doc.after ?? null,
        at: doc.at.toISOString(),
      })),
    };
  }
}
