import { describe, expect, it } from 'vitest';
import { COMMAND_SCHEMA_VERSIONS, commandSchemaVersion } from '../commands/command-schema-versions';
import { ORDER_PAID } from './order-paid.event';
import {
  EVENT_SCHEMA_VERSIONS,
  FIRST_SCHEMA_VERSION,
  eventSchemaVersion,
  schemaVersionOf,
} from './schema-version';

describe('schemaVersionOf', () => {
  it('reads a message without a version as the first, the shape from before versions', () => {
    expect(schemaVersionOf({ id: 'e1', type: ORDER_PAID })).toBe(FIRST_SCHEMA_VERSION);
    expect(schemaVersionOf({ schemaVersion: null })).toBe(FIRST_SCHEMA_VERSION);
    expect(schemaVersionOf('not an object')).toBe(FIRST_SCHEMA_VERSION);
  });

  it('answers the version a message carries', () => {
    expect(schemaVersionOf({ schemaVersion: 3 })).toBe(3);
  });

  it.each([0, -1, 1.5, '2', Number.NaN, Infinity])('refuses %s as a version', (schemaVersion) => {
    expect(schemaVersionOf({ schemaVersion })).toBeUndefined();
  });
});

describe('the current versions', () => {
  it('give every known event type and command a version, and any other the first', () => {
    expect(eventSchemaVersion(ORDER_PAID)).toBe(EVENT_SCHEMA_VERSIONS[ORDER_PAID]);
    expect(eventSchemaVersion('toString')).toBe(FIRST_SCHEMA_VERSION);
    expect(commandSchemaVersion('products.reserve')).toBe(COMMAND_SCHEMA_VERSIONS['products.reserve']);
    expect(commandSchemaVersion('nobody.home')).toBe(FIRST_SCHEMA_VERSION);
    for (const version of [
      ...Object.values(EVENT_SCHEMA_VERSIONS),
      ...Object.values(COMMAND_SCHEMA_VERSIONS),
    ])
      expect(Number.isSafeInteger(version) && version >= FIRST_SCHEMA_VERSION).toBe(true);
  });
});
