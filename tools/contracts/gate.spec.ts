// The breaking-change gate on fixture pairs (a small service's documents, fixtures/, and one change
// each), then on the repository itself against releases.json's previous releases.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { type ContractSide, SERVICES, compatibilityNoted, gateService, repoRoot } from './gate.js';

const execFileAsync = promisify(execFile);
const fixture = (file: string) => readFileSync(join(import.meta.dirname, 'fixtures', file), 'utf8');
const base: ContractSide = {
  version: '1.4.0',
  openapi: fixture('openapi.json'),
  asyncapi: fixture('asyncapi.yaml'),
};

type OpenApi = {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, { required: string[]; properties: Record<string, unknown> }> };
};
type AsyncApi = {
  channels: Record<string, unknown>;
  operations: Record<string, unknown>;
  components: {
    messages: Record<
      string,
      { payload: { properties: { data: { properties: Record<string, unknown>; required: string[] } } } }
    >;
  };
};

/** The base with its OpenAPI document changed by `change`. */
function withOpenApi(change: (document: OpenApi) => void, version = base.version): ContractSide {
  const document = JSON.parse(base.openapi) as OpenApi;
  change(document);
  return { ...base, version, openapi: JSON.stringify(document) };
}

function withAsyncApi(change: (document: AsyncApi) => void, version = base.version): ContractSide {
  const document = parse(base.asyncapi) as AsyncApi;
  change(document);
  return { ...base, version, asyncapi: stringify(document) };
}

/** The gate on the fixture service from the base to `next`. */
const gateThings = (next: ContractSide, changelog?: string) => gateService('things', base, next, changelog);

const removedRoute = (document: OpenApi) => {
  delete document.paths['/api/things/mine'];
};

describe('the gate on fixture pairs', () => {
  it('fails a removed route, naming it', async () => {
    const result = await gateThings(withOpenApi(removedRoute));
    expect(result.pass).toBe(false);
    expect(result.breaking).toEqual([expect.stringMatching(/^OpenAPI GET \/api\/things\/mine: .*removed/)]);
    expect(result.reason).toMatch(/need a new major version: 1\.4\.0 is not a new major/);
  });

  it('fails a narrowed type of a request field (number to integer), naming the route', async () => {
    const result = await gateThings(
      withOpenApi((document) => {
        document.components.schemas['ThingInput']!.properties['quantity'] = { type: 'integer' };
      }),
    );
    expect(result.pass).toBe(false);
    expect(result.breaking).toContainEqual(expect.stringMatching(/^OpenAPI POST \/api\/things: .*quantity/));
  });

  it('fails a new required input, naming the route', async () => {
    const result = await gateThings(
      withOpenApi((document) => {
        const input = document.components.schemas['ThingInput']!;
        input.properties['sku'] = { type: 'string' };
        input.required.push('sku');
      }),
    );
    expect(result.pass).toBe(false);
    expect(result.breaking).toContainEqual(expect.stringMatching(/^OpenAPI POST \/api\/things: .*sku/));
  });

  it('fails a changed event payload, naming the event', async () => {
    const result = await gateThings(
      withAsyncApi((document) => {
        const data = document.components.messages['thingCreated']!.payload.properties.data;
        data.properties['count'] = data.properties['quantity'];
        delete data.properties['quantity'];
        data.required = ['thingId', 'count'];
      }),
    );
    expect(result.pass).toBe(false);
    expect(result.breaking.length).toBeGreaterThan(0);
    for (const line of result.breaking)
      expect(line).toMatch(
        /^AsyncAPI (channel|operation publishThingCreated on) shop\.events\.thing\.created: /,
      );
  });

  it('passes additions: a new route, a new optional input, a new field in an answer, a new event', async () => {
    const openapi = withOpenApi((document) => {
      document.paths['/api/things/count'] = {
        get: { operationId: 'countThings', responses: { '200': { description: 'How many' } } },
      };
      document.components.schemas['ThingInput']!.properties['note'] = { type: 'string' };
      document.components.schemas['Thing']!.properties['note'] = { type: 'string' };
    });
    const both = withAsyncApi((document) => {
      document.channels['thingDeleted'] = {
        address: 'shop.events.thing.deleted',
        messages: { thingDeleted: { $ref: '#/components/messages/thingDeleted' } },
      };
      document.operations['publishThingDeleted'] = {
        action: 'send',
        channel: { $ref: '#/channels/thingDeleted' },
        messages: [{ $ref: '#/channels/thingDeleted/messages/thingDeleted' }],
      };
      document.components.messages['thingDeleted'] = {
        payload: {
          properties: { data: { properties: { thingId: { type: 'string' } }, required: ['thingId'] } },
        },
      };
    });
    const result = await gateThings({ ...both, openapi: openapi.openapi });
    expect(result.breaking).toEqual([]);
    expect(result).toMatchObject({ pass: true, reason: 'no breaking change' });
  });

  // @asyncapi/parser numbers unnamed schemas by position (x-parser-schema-id <anonymous-schema-N>) and
  // the generator sorts keys, so an event sorting before the others renumbers every later schema.
  it('passes a new event whose name sorts before every existing one', async () => {
    const result = await gateThings(
      withAsyncApi((document) => {
        document.channels = {
          thingArchived: {
            address: 'shop.events.thing.archived',
            messages: { thingArchived: { $ref: '#/components/messages/thingArchived' } },
          },
          ...document.channels,
        };
        document.operations = {
          publishThingArchived: {
            action: 'send',
            channel: { $ref: '#/channels/thingArchived' },
            messages: [{ $ref: '#/channels/thingArchived/messages/thingArchived' }],
          },
          ...document.operations,
        };
        document.components.messages = {
          thingArchived: {
            payload: {
              properties: { data: { properties: { thingId: { type: 'string' } }, required: ['thingId'] } },
            },
          },
          ...document.components.messages,
        };
      }),
    );
    expect(result.breaking).toEqual([]);
    expect(result).toMatchObject({ pass: true, reason: 'no breaking change' });
  });

  it('lets a breaking change through only as a new major with a compatibility note', async () => {
    const note =
      '# things\n\n## 2.0.0\n\n### Compatibility\n\nGET /api/things/mine is gone: use GET /api/things?mine=1.\n';
    const minor = await gateThings(withOpenApi(removedRoute, '1.5.0'), note);
    expect(minor.pass).toBe(false);
    const noNote = await gateThings(
      withOpenApi(removedRoute, '2.0.0'),
      '# things\n\n## 2.0.0\n\nRemoved a route.\n',
    );
    expect(noNote.pass).toBe(false);
    expect(noNote.reason).toMatch(
      /CHANGELOG\.md has no "## 2\.0\.0" section with a "### Compatibility" heading/,
    );
    const noted = await gateThings(withOpenApi(removedRoute, '2.0.0'), note);
    expect(noted).toMatchObject({ pass: true, reason: 'new major 2.0.0 with its compatibility note' });
    expect(noted.breaking).toEqual([expect.stringMatching(/GET \/api\/things\/mine/)]);
  });

  it('reads a compatibility note only under the version it is for', () => {
    const changelog = '## 3.0.0\n\n### Compatibility\n\nx\n\n## 2.0.0\n\nnothing\n';
    expect(compatibilityNoted(changelog, '3.0.0')).toBe(true);
    expect(compatibilityNoted(changelog, '2.0.0')).toBe(false);
    expect(compatibilityNoted(undefined, '3.0.0')).toBe(false);
  });
});

describe('the gate on this repository', () => {
  it('reports a field removed from order.created as that one change of its payload', async () => {
    const orders = readFileSync(join(repoRoot, 'services', 'orders', 'asyncapi.yaml'), 'utf8');
    const document = parse(orders) as AsyncApi;
    const data = document.components.messages['orderCreated']!.payload.properties.data;
    expect(data.properties).toHaveProperty('totalPrice');
    const requiredAt = data.required.indexOf('totalPrice');
    delete data.properties['totalPrice'];
    data.required = data.required.filter((field) => field !== 'totalPrice');
    const current = { version: '0.1.0', openapi: base.openapi, asyncapi: stringify(document) };
    const result = await gateService('orders', { ...current, asyncapi: orders }, current);
    expect(result.pass).toBe(false);
    const payloadData =
      'AsyncAPI channel shop.events.order.created: remove /components/messages/orderCreated/payload/properties/data';
    expect(result.breaking).toEqual([
      `${payloadData}/properties/totalPrice`,
      `${payloadData}/required/${requiredAt}`,
    ]);
  });

  it('passes every service against its previous release in releases.json', async () => {
    const { stdout } = await execFileAsync(
      join(repoRoot, 'node_modules', '.bin', 'tsx'),
      [join(repoRoot, 'tools', 'contracts', 'gate.ts')],
      { cwd: repoRoot },
    );
    expect(stdout.split('\n').filter((line) => line.startsWith('ok ')).length).toBe(SERVICES.length);
  }, 300_000);
});
