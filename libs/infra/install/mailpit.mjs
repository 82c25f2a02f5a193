// The mail catcher (Mailpit) the stack gives the users service: built from its Go module with the shop's
// own inbox page (libs/infra/mail-viewer) as its web UI. The module carries no UI (Mailpit's releases
// build theirs with npm and embed it), so a plain `go install` serves a page without its script; here the
// module's files are copied, the page put where Mailpit embeds its UI from, and the copy built. Rebuilt
// whenever the page or the pinned version change. Without Go it is left out: the stack then has the
// users service write e-mail to files.
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import paths from '../src/paths.cjs';
import { building, findGo, goModuleDir, stagingFor } from './builders.mjs';
import { run } from './system.mjs';

const versions = paths.toolVersions();
const viewerDir = join(dirname(dirname(fileURLToPath(import.meta.url))), 'mail-viewer');
// The names Mailpit's page loads its UI by (/dist/app.js, /dist/app.css).
const viewerFiles = ['app.js', 'app.css'];

export function ensureMailCatcher({ log, cached }, estimate) {
  const label = `mailpit ${versions.mailpit}`;
  const binary = paths.toolPaths(versions).mailpit;
  const target = dirname(binary);
  const hash = sourceHash();
  if (builtHash(target, binary) === hash) return cached(label);
  const go = findGo();
  if (!go) {
    if (existsSync(binary)) return cached(`${label} (an earlier inbox page: no Go to rebuild it)`);
    return log(`${label}: Go is not installed; no mail catcher, e-mail is written to files (.data/outbox)`);
  }
  const done = building(
    label,
    `with go build, the shop's inbox page as its UI, into ${target}`,
    estimate,
    log,
  );
  const staging = stagingFor(target);
  const source = join(staging, 'source');
  try {
    const moduleAtVersion = `github.com/axllent/mailpit@v${versions.mailpit}`;
    cpSync(goModuleDir(label, go, moduleAtVersion), source, { recursive: true });
    // Go's module cache keeps its files read-only, and so does the copy.
    writable(source);
    const ui = join(source, 'server', 'ui', 'dist');
    mkdirSync(ui, { recursive: true });
    for (const file of viewerFiles) copyFileSync(join(viewerDir, file), join(ui, file));
    const ldflags = `-s -w -X github.com/axllent/mailpit/config.Version=v${versions.mailpit}`;
    run(
      label,
      go,
      ['-C', source, 'build', '-trimpath', '-ldflags', ldflags, '-o', join(staging, 'mailpit')],
      {
        PATH: `${dirname(go)}${delimiter}${process.env.PATH ?? ''}`,
      },
    );
    rmSync(source, { recursive: true, force: true });
    writeFileSync(join(staging, 'build.sha256'), `${hash}\n`);
    rmSync(target, { recursive: true, force: true });
    try {
      renameSync(staging, target);
    } catch (error) {
      if (builtHash(target, binary) !== hash) throw error; // otherwise a concurrent run got there first
    }
  } finally {
    if (existsSync(source)) writable(source);
    rmSync(staging, { recursive: true, force: true });
  }
  done();
}

/** Makes `dir` and every folder and file in it writable by its owner, so it can be changed and removed. */
function writable(dir) {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) writable(path);
    else if (entry.isFile()) chmodSync(path, 0o644);
  }
}

function sourceHash() {
  const digest = createHash('sha256').update(`mailpit ${versions.mailpit}\n`);
  for (const file of viewerFiles) digest.update(readFileSync(join(viewerDir, file)));
  return digest.digest('hex');
}

function builtHash(dir, binary) {
  const marker = join(dir, 'build.sha256');
  if (!existsSync(marker) || !existsSync(binary)) return undefined;
  return readFileSync(marker, 'utf8').trim();
}
