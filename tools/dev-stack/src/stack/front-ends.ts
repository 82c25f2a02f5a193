import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { repoRoot } from '@shop/infra';
import type { FrontEndName } from '../ports.js';
import { describeBuild, serveStatic, type StaticServer } from '@shop/static-server';
import type { Parts } from './parts.js';

/** The remotes the shell names in remotes.json, by their part. */
export const REMOTE_OF_PART = {
  'mf-catalog': 'catalog',
  'mf-checkout': 'checkout',
  'mf-admin': 'admin',
} as const;
export type RemotePartName = keyof typeof REMOTE_OF_PART;
export type RemoteName = (typeof REMOTE_OF_PART)[RemotePartName];

/**
 * `schema-2`: `{ schemaVersion: 2, remotes: { catalog: { version, url } } }` (docs/decisions/0011);
 * `flat`: `{ catalog: url }`, the only shape shells before it read.
 */
export type RemotesManifestShape = 'schema-2' | 'flat';

/** The document the shell reads at /remotes.json, naming each remote's version behind the gateway. */
export function remotesManifest(
  versions: Partial<Record<RemoteName, string>>,
  shape: RemotesManifestShape = 'schema-2',
): unknown {
  const entries = Object.entries(versions).map(([remote, version]) => {
    const url = `/remotes/${remote}/${version}/mf-manifest.json`;
    return [remote, shape === 'flat' ? url : { version, url }] as const;
  });
  return shape === 'flat'
    ? Object.fromEntries(entries)
    : { schemaVersion: 2, remotes: Object.fromEntries(entries) };
}

const requireBuilt = createRequire(import.meta.url);

/** A server build beside a front-end's browser build (`mf-catalog/dist-server` beside `mf-catalog/dist`). */
function serverBuildOf(dir: string, entry: string): string | undefined {
  const file = join(dirname(dir), 'dist-server', `${entry}.js`);
  return existsSync(file) ? file : undefined;
}

interface RunningServer {
  url: string;
  close: () => Promise<void>;
}

interface RenderServerModule {
  startRenderServer: (options: {
    apiUrl: string;
    natsUrl?: string;
    cache?: { freshForMs?: number };
    host?: string;
    log?: (entry: Record<string, unknown>) => void;
  }) => Promise<RunningServer & { version: string }>;
}

interface PageServerModule {
  startPageServer: (options: {
    template: () => Promise<string>;
    remotesManifest: () => Promise<unknown>;
    renderService: (remote: string, version: string | undefined) => string | undefined;
    host?: string;
    log?: (entry: Record<string, unknown>) => void;
  }) => Promise<RunningServer>;
}

/**
 * The front-ends' static servers: the shell with its environment files (remotes.json, served at its root
 * before its build's defaults, as the ConfigMap mounted over them is in Kubernetes), and each remote
 * serving one or more versions side by side (a deploy publishes the next, then points the shell at it).
 */
export class FrontEnds {
  private readonly servers = new Map<FrontEndName, StaticServer>();
  private readonly pointed: Partial<Record<RemoteName, string>> = {};
  private manifestShape: RemotesManifestShape = 'schema-2';
  private readonly environmentDir: string;

  /** The catalog's render services (docs/decisions/0020), one per version served, as its team runs them. */
  private readonly renderServers = new Map<string, RunningServer>();

  constructor(
    private readonly settings: {
      dataDir: string;
      ports: Record<FrontEndName, number>;
      parts: Parts;
      log: (line: string) => void;
      /** Where render services read the shop's data: the gateway. */
      apiUrl: string;
      /** Where render services hear of the catalogue's changes, which drop their cached screens. */
      natsUrl: string;
      /** How long a rendered screen is served as it is when no change drops it (RENDER_CACHE_FRESH_MS). */
      renderCacheFreshMs?: number;
    },
  ) {
    this.environmentDir = join(settings.dataDir, 'web', 'shell');
    mkdirSync(this.environmentDir, { recursive: true });
  }

  /** Rewrites the shell's remotes.json to name these versions (the others stay as they are). */
  pointRemotes(versions: Partial<Record<RemoteName, string>>, shape = this.manifestShape): void {
    Object.assign(this.pointed, versions);
    this.manifestShape = shape;
    // Written whole and renamed into place, so no page load ever reads half a document.
    const file = join(this.environmentDir, 'remotes.json');
    writeFileSync(`${file}.tmp`, `${JSON.stringify(remotesManifest(this.pointed, shape), null, 2)}\n`);
    renameSync(`${file}.tmp`, file);
  }

  /** Serves the build in `dir` (the front-end's own dist by default); a remote is named in remotes.json. */
  async start(name: FrontEndName, dir = join(repoRoot(), name, 'dist')): Promise<void> {
    if (!existsSync(join(dir, name === 'shell' ? 'index.html' : 'mf-manifest.json'))) {
      throw new Error(`${name} is not built (${dir}); run npm run build`);
    }
    const build = describeBuild(dir);
    const host = '127.0.0.1';
    const port = this.settings.ports[name];
    let server: StaticServer;
    let pages: RunningServer | undefined;
    if (name === 'shell') {
      pages = await this.startPageServer(dir);
      // A shell built before versioned paths expects to be served at the root, as it was then.
      server = build.versioned
        ? await serveStatic({
            dir: this.environmentDir,
            builds: { [build.version]: dir },
            release: build.version,
            port,
            host,
            spa: true,
            pages: pages?.url,
          })
        : await serveStatic({ dir: [this.environmentDir, dir], port, host, spa: true });
    } else {
      if (name === 'mf-catalog') await this.startRenderServer(build.version, dir);
      server = await serveStatic({ builds: { [build.version]: dir }, port, host });
      this.pointRemotes({ [REMOTE_OF_PART[name]]: build.version });
    }
    this.servers.set(name, server);
    this.settings.parts.add(name, {
      stop: async () => {
        await server.close();
        await pages?.close();
        if (name === 'mf-catalog') await this.stopRenderServers();
      },
    });
    this.settings.log(
      `${name.padEnd(13)} ${server.url} (${build.version})${pages ? `, pages rendered by ${pages.url}` : ''}`,
    );
  }

  /** The shell's page server for this build, when the build has one (builds before server rendering do not). */
  private async startPageServer(dir: string): Promise<RunningServer | undefined> {
    const file = serverBuildOf(dir, 'page-server');
    if (!file) return undefined;
    const { startPageServer } = requireBuilt(file) as PageServerModule;
    const remotesFile = join(this.environmentDir, 'remotes.json');
    return startPageServer({
      host: '127.0.0.1',
      template: () => readFile(join(dir, 'index.html'), 'utf8'),
      remotesManifest: async () => JSON.parse(await readFile(remotesFile, 'utf8')) as unknown,
      // Each version of the catalog served has its render service; the page asks the one of the version
      // remotes.json names, as the browser loads that version's code.
      renderService: (remote, version) =>
        remote === 'catalog' && version !== undefined ? this.renderServers.get(version)?.url : undefined,
      log: (entry) => {
        if (entry['msg'] !== 'rendered') this.settings.log(`shell pages   ${JSON.stringify(entry)}`);
      },
    });
  }

  /** The catalog's render service of this version, when its build has one. */
  private async startRenderServer(version: string, dir: string): Promise<void> {
    const file = serverBuildOf(dir, 'render-server');
    if (!file || this.renderServers.has(version)) return;
    const { startRenderServer } = requireBuilt(file) as RenderServerModule;
    const server = await startRenderServer({
      apiUrl: this.settings.apiUrl,
      natsUrl: this.settings.natsUrl,
      cache: { freshForMs: this.settings.renderCacheFreshMs },
      host: '127.0.0.1',
      log: (entry) => {
        if (entry['msg'] !== 'rendered') this.settings.log(`catalog render ${JSON.stringify(entry)}`);
      },
    });
    this.renderServers.set(version, server);
    this.settings.log(`${'catalog render'.padEnd(13)} ${server.url} (${version})`);
  }

  private async stopRenderServers(): Promise<void> {
    const servers = [...this.renderServers.values()];
    this.renderServers.clear();
    await Promise.all(servers.map((server) => server.close()));
  }

  /** Serves the build in `dir` beside the versions a remote already serves; answers its version. */
  async publish(name: RemotePartName, dir: string): Promise<string> {
    const server = this.servers.get(name);
    if (!server || !this.settings.parts.has(name)) throw new Error(`${name} is not running`);
    const { version } = describeBuild(dir);
    server.publish(version, dir);
    if (name === 'mf-catalog') await this.startRenderServer(version, dir);
    this.settings.log(`${name.padEnd(13)} also serves ${version}`);
    return version;
  }
}
