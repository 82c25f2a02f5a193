/** Cache-Control for a request path of a built front-end. */
export function cacheControlFor(pathname: string): string;

/** What a build's mf-manifest.json says: its version, and whether it is served under it (else at the root). */
export function describeBuild(dir: string): { version: string; versioned: boolean };

export interface StaticServerOptions {
  /** Folders served at the root as they are, searched in order: the environment's files, a flat build. */
  dir?: string | string[];
  /** Version → build folder, each served under `/<version>/`. */
  builds?: Record<string, string>;
  /** The version whose files answer root paths `dir` lacks (the shell's page, favicon, default remotes.json). */
  release?: string;
  port?: number;
  host?: string;
  /** Page requests for unknown paths without an extension answer index.html (the shell's routes). */
  spa?: boolean;
  /** Let any origin read the files (remotes loaded straight from their port). */
  cors?: boolean;
  /**
   * The shell's page server (docs/decisions/0020): page requests (`/` too) are answered by it, rendered on
   * the server; when it fails or is slow they are answered as without it.
   */
  pages?: string;
}

export interface StaticServer {
  url: string;
  port: number;
  /** Serves one more build under `/<version>/`, beside the others, without a restart. */
  publish(version: string, dir: string): void;
  close(): Promise<void>;
}

/** Serves built front-ends with the layout of their image and the cache rules of docs/decisions/0011. */
export function serveStatic(options: StaticServerOptions): Promise<StaticServer>;
