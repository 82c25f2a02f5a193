import { resolve } from 'node:path';

/** `<gateway>/kong.yml`: the routing table shipped with this package (from src/ and from dist/ alike). */
export const DEFAULT_CONFIG_PATH = resolve(__dirname, '..', 'kong.yml');
