import { MEDIA_STORE_SEED_IMAGE } from '../media/store-seed-image';
import { FIRST_SCHEMA_VERSION } from '../events/schema-version';
import { PRODUCTS_RELEASE, PRODUCTS_RESERVE } from '../products/stock-reservation';

/**
 * The current schema version of each NATS request/reply command; one number covers the request and
 * its reply. On the wire both carry it as `schemaVersion` (none: the first version, as sent before
 * versions existed). `requestReply` adds it to a request and checks the reply's; the responder's
 * `CommandVersionInterceptor` checks the request's and answers in that version. The rules are the
 * events' (docs/decisions/0013-event-compatibility.md): new optional fields keep the version, and a
 * responder learns a new version before any caller sends it.
 */
export const COMMAND_SCHEMA_VERSIONS: Readonly<Record<string, number>> = {
  [PRODUCTS_RESERVE]: 1,
  [PRODUCTS_RELEASE]: 1,
  [MEDIA_STORE_SEED_IMAGE]: 1,
};

/** The schema version this build sends and answers for a command (one it does not list: the first). */
export function commandSchemaVersion(pattern: string): number {
  return Object.hasOwn(COMMAND_SCHEMA_VERSIONS, pattern)
    ? COMMAND_SCHEMA_VERSIONS[pattern]!
    : FIRST_SCHEMA_VERSION;
}
