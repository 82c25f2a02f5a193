import type { QueryOf, Schema } from '../http/api-types';

/** One admin action as the audit trail keeps it (docs/product/rules.md, "Audit trail"). */
export type AuditEntry = Schema<'AuditEntryResponse'>;

/** Where the audit trail is read, relative to the site root (admins only). */
export const AUDIT_API = '/api/data/audit';

/** Limits of `GET api/data/audit`, shared by the server's validation and the screen. */
export const AUDIT_LIST_LIMITS = {
  /** Entries per page when `limit` is not given. */
  defaultLimit: 20,
  maxLimit: 100,
} as const;

/**
 * Query of `GET api/data/audit`: one page of the entries matching the filters, newest first; the number
 * of all matches is in `X-Total-Count` (`TOTAL_COUNT_HEADER`).
 */
export type AuditListQuery = QueryOf<'/api/data/audit', 'get'>;
