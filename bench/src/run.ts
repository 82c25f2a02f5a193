// `npm run bench [section ...]`: one stack on free ports, every section measured in turn (or only the
// named ones), then bench/out/report.md and bench/out/report.json. A run of some sections keeps the
// other sections' figures of the report it replaces, each with the run that measured it. Exits 1 when a
// figure of this run misses its target.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, type StackOptions, addressLimitsRaisedTo, startStack } from '@shop/dev-stack';
import type { BenchContext, BenchSection, Figure } from './lib/figure.js';
import {
  CPU_TOLERANCE,
  type Regression,
  cpuRegressions,
  describeRegression,
  figuresOfRecord,
  machineFactor,
} from './lib/regressions.js';
import { SECTIONS } from './sections/index.js';

const DURATION_S = Number(process.env['BENCH_DURATION_S'] ?? 10);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 32);
// The gateway's limits are sized for shoppers, far below a load test's rate.
const RATE_LIMIT_FACTOR = 100_000;
// The whole run is one address: the users service's per-address limits are raised with it.
const SERVICE_ENV = addressLimitsRaisedTo(100_000);

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(value >= 10 ? 1 : 2);
}

/** '≥ 0.35', or '—' for a figure reported without a target. */
const targetOf = (f: Figure): string =>
  f.reportOnly ? '—' : `${f.better === 'higher' ? '≥' : '≤'} ${f.target}`;

/** The lines of the report's comparison with the report of record (lib/regressions.ts). */
function guardLines(compared: string[], regressions: Regression[], machine: number): string[] {
  if (compared.length === 0)
    return ['No figure of this run has CPU by part in the report of record to compare with.'];
  const scaled =
    machine === 1
      ? ' (not scaled by the machine: this run or the record has no bare server)'
      : ` (each scaled first by the machine: the bare server cost ${machine.toFixed(2)}x the record's in this run)`;
  if (regressions.length === 0)
    return [
      `CPU per request by part of ${compared.join(', ')}: no part costlier than in the report of record by more than ` +
        `${Math.round(CPU_TOLERANCE * 100)} % beyond its measured noise${scaled}.`,
    ];
  return [
    `CPU per request by part, costlier than in the report of record by more than ${Math.round(
      CPU_TOLERANCE * 100,
    )} % beyond its measured noise${scaled}:`,
    '',
    ...regressions.map((regression) => `- ${describeRegression(regression)}`),
  ];
}

export function renderReport(meta: string, figures: Figure[], guard: string[] = []): string {
  const lines = ['# Benchmark report', '', meta, ''];
  lines.push('| figure | measured | reference | ratio | target | verdict |', '|---|---:|---:|---:|---:|---|');
  for (const f of figures) {
    lines.push(
      `| ${f.measured.what} | ${formatNumber(f.measured.value)} ${f.measured.unit} | ${f.reference.what}: ${formatNumber(
        f.reference.value,
      )} ${f.reference.unit} | ${f.ratio.toFixed(2)} | ${targetOf(f)} | ${
        f.reportOnly ? 'reported' : f.pass ? 'pass' : '**miss**'
      } |`,
    );
  }
  if (guard.length > 0) lines.push('', '## Against the report of record', '', ...guard);
  const notes = figures.filter((f) => f.notes);
  if (notes.length > 0) {
    lines.push('', '## Notes', '');
    for (const f of notes) lines.push(`- **${f.id}**: ${f.notes}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The section a figure belongs to: its id's first word ('reads' of 'reads.gateway-vs-bare'). */
const sectionOf = (f: Figure) => f.id.split('.')[0];

/** The figures of sections this run did not measure, from the report it replaces, each with its run. */
function keptFigures(reportPath: string, measured: BenchSection[]): Figure[] {
  if (!existsSync(reportPath)) return [];
  const earlier = JSON.parse(readFileSync(reportPath, 'utf8')) as {
    meta: string | string[];
    figures: Figure[];
  };
  const earlierRun = Array.isArray(earlier.meta) ? earlier.meta[0] : earlier.meta;
  return earlier.figures
    .filter((f) => !measured.some((s) => s.name === sectionOf(f)))
    .map((f) => ({ ...f, run: f.run ?? earlierRun }));
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !SECTIONS.some((s) => s.name === name));
  if (unknown.length > 0) {
    console.error(
      `unknown section(s): ${unknown.join(', ')}; known: ${SECTIONS.map((s) => s.name).join(', ')}`,
    );
    process.exit(2);
  }
  const sections: BenchSection[] =
    wanted.length > 0 ? SECTIONS.filter((s) => wanted.includes(s.name)) : SECTIONS;

  const log = (line: string): void => console.log(line);
  log('Starting the stack on free ports (gateway and per-address limits raised for load)...');
  // Every stack of the run has the same limits; the run's own exports no spans (the figures of record
  // were measured so), the tracing section starts one that does.
  const benchStack = (options: Partial<StackOptions> = {}) =>
    startStack({
      ports: 'free',
      rateLimitFactor: RATE_LIMIT_FACTOR,
      observability: false,
      ...options,
      serviceEnv: { ...SERVICE_ENV, ...options.serviceEnv },
    });
  const stack = await benchStack();
  const figures: Figure[] = [];
  try {
    const context: BenchContext = {
      stack,
      startStack: benchStack,
      durationS: DURATION_S,
      connections: CONNECTIONS,
      log,
    };
    for (const section of sections) {
      log(`\n== ${section.name}`);
      const found = await section.run(context);
      for (const f of found) {
        log(
          `${f.reportOnly ? 'info' : f.pass ? 'pass' : 'MISS'} ${f.id}: ${formatNumber(f.measured.value)} ${
            f.measured.unit
          } / ${formatNumber(f.reference.value)} ${f.reference.unit} = ${f.ratio.toFixed(2)} (target ${targetOf(f)})`,
        );
      }
      figures.push(...found);
    }
  } finally {
    await stack.stop();
  }

  const meta = `Run of ${new Date().toISOString()} on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${Math.round(
    totalmem() / 2 ** 30,
  )} GiB, Node ${process.version}; ${CONNECTIONS} connections, ${DURATION_S} s per load phase; sections: ${sections
    .map((s) => s.name)
    .join(', ')}.`;
  const outDir = join(REPO_ROOT, 'bench', 'out');
  mkdirSync(outDir, { recursive: true });
  const order = (f: Figure) => SECTIONS.findIndex((s) => s.name === sectionOf(f));
  const all = [
    ...keptFigures(join(outDir, 'report.json'), sections),
    ...figures.map((f) => ({ ...f, run: meta })),
  ]
    .map((f, index) => ({ f, index }))
    .sort((a, b) => order(a.f) - order(b.f) || a.index - b.index)
    .map(({ f }) => f);
  const runs = [...new Set(all.map((f) => f.run!))];
  // The regression guard: this run's CPU by part against the report as committed, read before it is rewritten.
  const record = figuresOfRecord(REPO_ROOT);
  const compared = figures
    .filter((f) => f.cpuUs && record.some((r) => r.id === f.id && r.cpuUs))
    .map((f) => f.id);
  const regressions = cpuRegressions(record, figures);
  const guard = guardLines(compared, regressions, machineFactor(record, figures).factor);
  log(`\n${guard.join('\n')}`);
  writeFileSync(join(outDir, 'report.md'), renderReport(runs.join('\n\n'), all, guard));
  writeFileSync(join(outDir, 'report.json'), `${JSON.stringify({ meta: runs, figures: all }, null, 2)}\n`);
  log(
    `\nWrote bench/out/report.md and report.json (${figures.length} figures of this run, ${all.length} in all).`,
  );
  const missed = figures.filter((f) => !f.pass);
  if (missed.length > 0) {
    log(
      `${missed.length} of ${figures.length} figures miss their targets: ${missed.map((f) => f.id).join(', ')}.`,
    );
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
