/** Cache-Control for a request path of a built front-end. */
export function cacheControlFor(pathname: string): string;

export interface StaticServerOptions {
  dir: string;
  port?: number;
  host?: string;
  /** Page requests for unknown paths without an extension answer index.html (the shell's routes). */
  spa?: boolean;
  /** Let any origin read the files (remotes loaded straight from their port). */
  cors?: boolean;
}

export interface StaticServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves a built front-end with the cache rules of ARCHITECTURE.md. */
export function serveStatic(options: StaticServerOptions): Promise<StaticServer>;
