// The embedded database's launcher (libs/infra/mongo): mongo-java-server and its dependencies fetched by
// Maven, the launcher compiled by javac, rebuilt whenever its sources or the pinned version change.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import paths from '../src/paths.cjs';
import { building, stagingFor } from './builders.mjs';
import { fail, run, which } from './system.mjs';

const versions = paths.toolVersions();
const mongoDir = join(dirname(dirname(fileURLToPath(import.meta.url))), 'mongo');
const mongoSources = [
  join(mongoDir, 'pom.xml'),
  join(mongoDir, 'src', 'main', 'java', 'shop', 'EmbeddedMongo.java'),
];

export function ensureMongoLauncher({ log, cached }, estimate) {
  const label = `mongo-java-server ${versions.mongoJavaServer}`;
  const target = paths.toolPaths(versions).mongoDir;
  const hash = sourceHash();
  if (builtHash(target) === hash) return cached(label);

  for (const tool of ['java', 'javac', 'mvn']) {
    if (!which(tool)) fail(`${label}: '${tool}' is not on PATH (the launcher needs Java 17+ and Maven)`);
  }
  const done = building(label, `the database launcher (Maven, javac) into ${target}`, estimate, log);
  // Build beside the target and move it in at the end, so a concurrent run never sees half a build.
  const staging = stagingFor(target);
  try {
    run(label, 'mvn', [
      '-B',
      '-q',
      '-f',
      mongoSources[0],
      'dependency:copy-dependencies',
      `-DoutputDirectory=${join(staging, 'lib')}`,
      `-Dmongo-java-server.version=${versions.mongoJavaServer}`,
    ]);
    run(label, 'javac', [
      '--release',
      '17',
      '-cp',
      join(staging, 'lib', '*'),
      '-d',
      join(staging, 'classes'),
      mongoSources[1],
    ]);
    writeFileSync(join(staging, 'build.sha256'), `${hash}\n`);
    rmSync(target, { recursive: true, force: true });
    try {
      renameSync(staging, target);
    } catch (error) {
      if (builtHash(target) !== hash) throw error; // otherwise a concurrent run got there first
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  done();
}

function sourceHash() {
  const digest = createHash('sha256').update(`mongo-java-server ${versions.mongoJavaServer}\n`);
  for (const file of mongoSources) digest.update(readFileSync(file));
  return digest.digest('hex');
}

function builtHash(dir) {
  const marker = join(dir, 'build.sha256');
  if (!existsSync(marker) || !existsSync(join(dir, 'classes', 'shop', 'EmbeddedMongo.class')))
    return undefined;
  return readFileSync(marker, 'utf8').trim();
}
