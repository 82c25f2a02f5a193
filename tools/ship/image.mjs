#!/usr/bin/env node
// Builds and tags the image of a deployable: registry.example.com/shop/<name>:<version>, the version
// being the deployable's package.json version. The Nx target `image` of every deployable runs it, so
// `npx nx affected -t image` builds only what a change touched.
//
//   node tools/ship/image.mjs <project | name | folder> [--push] [--previous-image <ref>] [--print]
//
// A project or folder names every image of that workspace: a front-end's own and the extra images it
// declares (deployables.mjs; mf-catalog-render beside mf-catalog, shell-pages beside shell), all built
// from this commit at its version, and all built and checked before any is pushed. An image's name
// (`mf-catalog-render`) builds that one alone.
//
//   --push            push each tag after the builds, unless the registry already has it: a version is
//                     published once and never overwritten (a change needs a new version to ship)
//   --previous-image  for the front-ends: the image whose published versions the new one carries
//                     forward (the Dockerfile's PREVIOUS_IMAGE build argument); by default the
//                     previous release that releases.json records, when it is another version
//   --print           print the docker commands instead of running them (works without Docker)
//
// Without a Docker engine it says so and fails: it never reports an image it did not build.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { findImages, repoRoot } from './deployables.mjs';

/** The uid and gid every container of the shop runs as (the k8s pods ask for the same). */
export const RUN_AS = '10001:10001';

/**
 * The docker commands that build (and push) a deployable's image, in order.
 * @param {import('./deployables.mjs').Deployable} deployable
 * @param {{ push?: boolean, previousImage?: string }} options
 * @returns {{ build: string[], verify: string[], published: string[], push: string[] | undefined }}
 */
export function imageCommands(deployable, { push = false, previousImage } = {}) {
  const declared = declaredBuildArgs(join(repoRoot, deployable.dockerfile));
  const args = { ...deployable.buildArgs };
  previousImage ??= declared.has('PREVIOUS_IMAGE') ? previousRelease(deployable) : undefined;
  if (previousImage) {
    if (!declared.has('PREVIOUS_IMAGE'))
      throw new Error(`${deployable.dockerfile} takes no PREVIOUS_IMAGE: --previous-image does not apply`);
    args.PREVIOUS_IMAGE = previousImage;
  }
  // Only what the Dockerfile declares: docker warns about the rest, and a missing one is a bug here.
  for (const name of Object.keys(args)) {
    if (!declared.has(name)) delete args[name];
  }
  const buildArgs = Object.entries(args).flatMap(([name, value]) => ['--build-arg', `${name}=${value}`]);
  return {
    build: ['docker', 'build', '-f', deployable.dockerfile, ...buildArgs, '-t', deployable.image, '.'],
    // What the image must be, checked on the built image itself: it runs as 10001:10001 and carries no
    // npm, npx or corepack (a production image needs node and nothing that installs packages).
    verify: [
      'docker',
      'run',
      '--rm',
      '--entrypoint',
      '/bin/sh',
      deployable.image,
      '-c',
      `test "$(id -u):$(id -g)" = "${RUN_AS}" || { echo "runs as $(id -u):$(id -g), not ${RUN_AS}"; exit 1; }; ` +
        'for tool in npm npx corepack; do if command -v "$tool"; then echo "carries $tool"; exit 1; fi; done',
    ],
    published: ['docker', 'manifest', 'inspect', deployable.image],
    push: push ? ['docker', 'push', deployable.image] : undefined,
  };
}

/**
 * The image of the deployable's previous release, as releases.json records it (the front-ends carry
 * the versions they replace forward, so pods of either version serve both during a rollout), or
 * undefined when there is none or it is this very version.
 */
export function previousRelease(deployable, releasesFile = join(repoRoot, 'releases.json')) {
  if (!existsSync(releasesFile)) return undefined;
  const version = JSON.parse(readFileSync(releasesFile, 'utf8')).previous?.[deployable.name]?.version;
  if (typeof version !== 'string' || version === deployable.version) return undefined;
  return deployable.image.replace(/:[^:]+$/, `:${version}`);
}

/** The names of the ARG instructions of a Dockerfile. */
export function declaredBuildArgs(dockerfile) {
  const names = new Set();
  for (const line of readFileSync(dockerfile, 'utf8').split('\n')) {
    const match = /^\s*ARG\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(line);
    if (match?.[1]) names.add(match[1]);
  }
  return names;
}

/** Why Docker cannot build here, or undefined when an engine answers. */
export function dockerUnavailable() {
  const result = spawnSync('docker', ['version', '--format', '{{.Server.Version}}'], { encoding: 'utf8' });
  if (result.error)
    return 'Docker is not installed (no `docker` on PATH): no image was built. --print shows the commands.';
  if (result.status !== 0) {
    const reason = `${result.stderr}`.trim().split('\n').pop() ?? '';
    return `Docker is installed but no engine answers (${reason}): no image was built. --print shows the commands.`;
  }
  return undefined;
}

function run(command) {
  console.log(`$ ${command.map(quote).join(' ')}`);
  const result = spawnSync(command[0], command.slice(1), { cwd: repoRoot, stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function quote(word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

function main(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      push: { type: 'boolean', default: false },
      'previous-image': { type: 'string' },
      print: { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) {
    console.error(
      'usage: node tools/ship/image.mjs <project | name | folder> [--push] [--previous-image <ref>] [--print]',
    );
    return 2;
  }
  // Nx passes {projectRoot}; relative to the repository so the caller's directory does not matter.
  const target = positionals[0].startsWith('/') ? relative(repoRoot, positionals[0]) : positionals[0];
  const images = imagesToBuild(findImages(target), {
    push: values.push,
    previousImage: values['previous-image'],
  });

  if (values.print) {
    for (const { commands } of images)
      for (const command of [commands.build, commands.verify]) console.log(command.map(quote).join(' '));
    for (const { commands } of images) if (commands.push) console.log(commands.push.map(quote).join(' '));
    return 0;
  }
  const unavailable = dockerUnavailable();
  if (unavailable) {
    console.error(`${images.map(({ deployable }) => deployable.image).join(', ')}: ${unavailable}`);
    return 1;
  }
  // Every image of the run is built and checked before any is pushed: when one fails, none of the
  // workspace's images is published from this commit.
  for (const { deployable, commands } of images) {
    if (run(commands.build) !== 0) {
      console.error(`${deployable.image} did not build: nothing pushed`);
      return 1;
    }
    if (run(commands.verify) !== 0) {
      console.error(`${deployable.image} is built but is not fit to ship (above): nothing pushed`);
      return 1;
    }
    console.log(`built ${deployable.image}`);
  }
  if (!values.push) return 0;
  const alreadyPublished = [];
  const pushed = [];
  for (const { deployable, commands } of images) {
    // Tags are immutable: what runs as 0.2.0 somewhere must stay what 0.2.0 was.
    const published = spawnSync(commands.published[0], commands.published.slice(1), { stdio: 'ignore' });
    if (published.status === 0) {
      console.log(
        `${deployable.image} is already published: not pushed again. To ship this change, raise "version" in ${deployable.root}/package.json.`,
      );
      alreadyPublished.push(deployable.image);
      continue;
    }
    if (run(/** @type {string[]} */ (commands.push)) !== 0) return 1;
    console.log(`pushed ${deployable.image}`);
    pushed.push(deployable.image);
  }
  if (alreadyPublished.length > 0 && pushed.length > 0)
    console.warn(
      `warning: ${pushed.join(', ')} pushed now, ${alreadyPublished.join(', ')} published before: the registry cannot tell whether from the same commit. If the workspace changed since, raise its version.`,
    );
  return 0;
}

/**
 * The commands of each image one run builds. An explicit --previous-image goes to the images whose
 * Dockerfile takes PREVIOUS_IMAGE (a front-end's own, not its render images), and to at least one.
 * @param {import('./deployables.mjs').Deployable[]} deployables
 * @param {{ push?: boolean, previousImage?: string }} options
 */
export function imagesToBuild(deployables, { push = false, previousImage } = {}) {
  const takesPrevious = (deployable) =>
    declaredBuildArgs(join(repoRoot, deployable.dockerfile)).has('PREVIOUS_IMAGE');
  if (previousImage && deployables.length > 1 && !deployables.some(takesPrevious))
    throw new Error(
      `${deployables.map((d) => d.dockerfile).join(', ')} take no PREVIOUS_IMAGE: --previous-image does not apply`,
    );
  return deployables.map((deployable) => ({
    deployable,
    commands: imageCommands(deployable, {
      push,
      previousImage: deployables.length > 1 && !takesPrevious(deployable) ? undefined : previousImage,
    }),
  }));
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}
