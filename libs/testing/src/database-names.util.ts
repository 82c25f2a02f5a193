import { randomBytes } from 'node:crypto';
import { ConnectionString } from 'mongodb-connection-string-url';

/** A database name no other test uses, e.g. `orders_m3k9x2_1a2b3c`; safe for MongoDB's 63-byte limit. */
export function uniqueDbName(prefix: string): string {
  const clean = prefix.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40) || 'test';
  return `${clean}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
}

/** The server URL with its database path replaced by `dbName`, keeping credentials and options. */
export function mongoUrlFor(baseUrl: string, dbName: string): string {
  const url = new ConnectionString(baseUrl);
  url.pathname = `/${encodeURIComponent(dbName)}`;
  return url.toString();
}
