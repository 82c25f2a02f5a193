// docs/performance.md, "Server rendering (bench)": the catalogue's pages as the shell's page server and the
// catalog's render service make them (docs/decisions/0020), three ways, each in the same run as its reference:
// 1. Lighthouse mobile LCP of `/` and of a product page against a static copy of the same page: the HTML the
//    shop answered for that URL once, without its scripts (and the script preloads), served by a bare
//    node:http server that passes every other request (the pictures) to the same gateway. What is left
//    between the two is what the page's JavaScript and its server time cost. And Lighthouse's SEO
//    category of home, a category and a product page.
// 2. Rendered product pages through the gateway under load against the gateway serving a static file of the
//    very same bytes (from the shell's static server, as the page's request goes: gateway → shell's static
//    server, then the page server and the render service).
// 3. CPU per rendered page, part by part, from sequential requests: the page server and the render service
//    run in this process (tools/dev-stack/src/stack/front-ends.ts), as do the gateway and the shell's
//    static server, so process.cpuUsage() around N requests sent to each in turn, and the differences.
// The section starts a stack of its own, to read the render service's and the page server's addresses
// from its log.
import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { RunningStack } from '@shop/dev-stack';
import autocannon from 'autocannon';
import { type BenchContext, type BenchSection, type Figure, figure } from '../lib/figure.js';
import { shopLcpAgainstStatic } from '../lib/lcp-figure.js';
import { type LaunchedChrome, launchChrome, lcpElementOf, lighthouseIn, median } from '../lib/lighthouse.js';
import { passOn } from '../lib/pass-on.js';
import { staticCopyOf } from '../lib/static-copy.js';
import { BENCH_PROCESS, partClocks, settle, spentSince } from '../lib/part-clocks.js';

/** Measured Lighthouse runs per page and variant (after one untimed warm-up each); SSR_LCP_RUNS overrides. */
const LCP_RUNS = Number(process.env['SSR_LCP_RUNS'] ?? 5);
/** Sequential requests per part for the CPU figures; SSR_CPU_PAGES overrides. */
const CPU_PAGES = Number(process.env['SSR_CPU_PAGES'] ?? 100);
/** The rendering targets (docs/performance.md, "Server rendering (bench)"): LCP within 10 % of the static page's, and a full SEO score. */
const LCP_TARGET = 1.1;
const SEO_TARGET = 1;
const WARM_UP_S = 2;
/** A folder to write each Lighthouse result to (SSR_LHR_DIR), for diagnosis. */
const LHR_DIR = process.env['SSR_LHR_DIR'];
const HTML_ACCEPT = 'text/html,application/xhtml+xml';

const round = (value: number, digits = 1) => Number(value.toFixed(digits));

// ---------------------------------------------------------------------------------------------------------
// The stack and what its log says

interface Addresses {
  /** The catalog's render service (`catalog render http://127.0.0.1:<port> (<version>)`). */
  render: string;
  /** The shell's page server (`shell ... pages rendered by http://127.0.0.1:<port>`). */
  pages: string;
}

function addressesIn(lines: string[]): Addresses {
  const render = lines.map((line) => /^catalog render\s+(http:\/\/\S+) \(/.exec(line)?.[1]).find(Boolean);
  const pages = lines.map((line) => /pages rendered by (http:\/\/\S+)/.exec(line)?.[1]).find(Boolean);
  if (!render || !pages) {
    throw new Error(
      'the stack started no render service or page server (are mf-catalog/dist-server and shell/dist-server built?)',
    );
  }
  return { render, pages };
}

/** What the page server and the render service logged that is not a success (fragments left to the browser). */
const troubleIn = (lines: string[]) =>
  lines.filter((line) => /^(shell pages|catalog render) \{/.test(line) && !/"msg":"rendered"/.test(line));

/**
 * Whether the catalog's render service caches rendered HTML yet (decision 0020 left it "not built yet"): a
 * file about a cache beside it, or a cache named in its server besides the Cache-Control header.
 */
/**
 * Whether the render service answers this page from its cache: asked twice, the second answer says `hit`
 * in `X-Render-Cache` (which the page server passes on). Waits for the cache to follow NATS first.
 */
async function renderCacheOf(url: string): Promise<string | undefined> {
  const deadline = Date.now() + 15_000;
  let seen: string | null = null;
  while (Date.now() < deadline) {
    const response = await fetch(url, { headers: { Accept: HTML_ACCEPT } });
    await response.arrayBuffer();
    seen = response.headers.get('x-render-cache');
    if (seen === 'hit') return 'X-Render-Cache: hit on the second request';
    if (seen === null) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url}: the render cache never answered a hit (last X-Render-Cache: ${seen})`);
}

// ---------------------------------------------------------------------------------------------------------
// 1. LCP against a static copy, and SEO

/** The body in the encoding the shop's page came in (the page server may compress; a browser accepts both). */
function encoded(html: string, encoding: string | undefined): Buffer {
  if (encoding === 'br')
    return brotliCompressSync(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } });
  if (encoding === 'gzip') return gzipSync(html, { level: 6 });
  return Buffer.from(html);
}

/**
 * Serves each static copy at its own path, in the encoding the shop used for it when the browser accepts
 * that encoding, and passes every other request (the pictures) to the gateway, so both variants fetch their
 * pictures from one origin through the same gateway.
 */
async function serveStaticCopies(
  copies: Map<string, { html: string; encoding: string | undefined }>,
  gatewayUrl: string,
): Promise<{ url: string; server: Server }> {
  const gateway = new URL(gatewayUrl);
  const bodies = new Map(
    [...copies].map(([path, copy]) => [path, { ...copy, body: encoded(copy.html, copy.encoding) }]),
  );
  const server = createServer((incoming, outgoing) => {
    const copy = bodies.get(incoming.url ?? '');
    if (copy) {
      const accepted = String(incoming.headers['accept-encoding'] ?? '');
      const compressed = copy.encoding !== undefined && accepted.includes(copy.encoding);
      const body = compressed ? copy.body : Buffer.from(copy.html);
      outgoing.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
        'content-length': body.length,
        ...(compressed ? { 'content-encoding': copy.encoding, vary: 'Accept-Encoding' } : {}),
      });
      outgoing.end(body);
      return;
    }
    passOn(gateway, incoming, outgoing);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

interface LighthouseRun {
  lcpMs: number;
  /** LCP in the unthrottled load Lighthouse simulated from: when the browser here painted it. */
  observedLcpMs: number;
  lcpElement: string;
}

const lighthouse = lighthouseIn(LHR_DIR);

async function lcpOf(url: string, port: number): Promise<LighthouseRun> {
  const lhr = await lighthouse.of(url, port, ['performance']);
  const lcpMs = lhr.audits['largest-contentful-paint']?.numericValue;
  if (lcpMs === undefined) throw new Error(`Lighthouse on ${url} measured no LCP`);
  const metrics = (
    lhr.audits['metrics']?.details as { items?: { observedLargestContentfulPaint?: number }[] }
  )?.items?.[0];
  return {
    lcpMs,
    observedLcpMs: metrics?.observedLargestContentfulPaint ?? Number.NaN,
    lcpElement: lcpElementOf(lhr),
  };
}

/** The SEO category's score, and the audits that count towards it and did not pass. */
async function seoOf(url: string, port: number): Promise<{ score: number; failed: string[] }> {
  const lhr = await lighthouse.of(url, port, ['seo']);
  const category = lhr.categories['seo'];
  const failed = (category?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
    .map((ref) => ref.id);
  return { score: category?.score ?? Number.NaN, failed };
}

// ---------------------------------------------------------------------------------------------------------
// 2. Throughput

interface Load {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Bytes per answer: a page whose catalog part was left to the browser is smaller than a rendered one. */
  bytesPerAnswer: number;
}

async function load(url: string, connections: number, durationS: number, distinct: boolean): Promise<Load> {
  // Distinct URLs (`?miss=<random id>`) make every page a miss of a cache keyed by URL. The load generator
  // runs in a worker thread, as the reads section's: the gateway and both renderers are in this one.
  const options = {
    url: distinct ? `${url}?miss=[<id>]` : url,
    idReplacement: distinct,
    connections,
    workers: 1,
  };
  await autocannon({ ...options, duration: WARM_UP_S });
  const result = await autocannon({ ...options, duration: durationS });
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
    throw new Error(
      `${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers; a failed page is not a fast one`,
    );
  }
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    bytesPerAnswer: result.throughput.total / Math.max(1, result.requests.total),
  };
}

const describeLoads = (runs: Load[]) =>
  runs
    .map(
      (run) =>
        `${Math.round(run.requestsPerSecond)} req/s (p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, ${Math.round(
          run.bytesPerAnswer,
        )} B per answer incl. headers)`,
    )
    .join(', ');
const meanOf = (runs: Load[], key: keyof Load) => runs.reduce((sum, run) => sum + run[key], 0) / runs.length;

// ---------------------------------------------------------------------------------------------------------
// 3. CPU by part

interface Cpu {
  /** CPU ms of this process per request: the gateway, the shell's static server, the page server and the
   * render service, and the client sending the requests. */
  inProcessMs: number;
  /** CPU ms per request of every other part of the stack: the services, the database, NATS. */
  servicesMs: number;
  /** Wall time per request, ms. */
  wallMs: number;
}

/** CPU per request of `send`, sent `count` times one after the other (after a tenth as many untimed). */
async function cpuPer(stack: RunningStack, count: number, send: () => Promise<void>): Promise<Cpu> {
  for (let i = 0; i < Math.max(3, count / 10); i++) await send();
  const clocksBefore = partClocks(stack);
  const before = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i++) await send();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(before);
  const { [BENCH_PROCESS]: _bench, ...others } = spentSince(clocksBefore, partClocks(stack));
  return {
    inProcessMs: (used.user + used.system) / 1000 / count,
    servicesMs: Object.values(others).reduce((sum, ms) => sum + ms, 0) / count,
    wallMs: wallMs / count,
  };
}

/** GET, the body read whole, an error unless the status is `expected`. */
async function get(url: string, accept: string, expected = 200): Promise<Buffer> {
  const response = await fetch(url, { headers: { Accept: accept } });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== expected) throw new Error(`GET ${url} answered ${response.status}`);
  return body;
}

// ---------------------------------------------------------------------------------------------------------

async function run({ startStack, connections, durationS, log }: BenchContext): Promise<Figure[]> {
  lighthouse.failures.length = 0;
  const stackLog: string[] = [];
  log('starting a stack of its own (its log names the render service and the page server)...');
  const stack = await startStack({ log: (line) => stackLog.push(line) });
  const dataDir = dirname(stack.logDir);
  const staticFile = join(dataDir, 'web', 'shell', 'bench-rendered-page.html');
  let chrome: LaunchedChrome | undefined;
  let copies: { url: string; server: Server } | undefined;
  try {
    const addresses = addressesIn(stackLog);
    log(`  render service ${addresses.render}, page server ${addresses.pages}`);
    const products = JSON.parse(
      (await get(`${stack.url}/api/products`, 'application/json')).toString('utf8'),
    ) as { slug: string; category: string; countInStock: number }[];
    const product = products.find((each) => /^[a-z0-9-]+$/.test(each.slug));
    if (!product) throw new Error('no product with a plain slug to render');
    const paths = {
      home: '/',
      product: `/product/${product.slug}`,
      category: `/category/${encodeURIComponent(product.category)}`,
    };
    const cache = await renderCacheOf(`${stack.url}${paths.product}`);
    await settle(log, [stack]);

    // The pages as the shop answers them, once each: what the static copies and the static file hold.
    const answered = new Map<string, { html: string; encoding: string | undefined }>();
    for (const path of [paths.home, paths.product]) {
      const response = await fetch(`${stack.url}${path}`, {
        headers: { Accept: HTML_ACCEPT, 'Accept-Encoding': 'br, gzip' },
      });
      if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
      const encoding = response.headers.get('content-encoding') ?? undefined;
      answered.set(path, { html: await response.text(), encoding });
    }
    const rendered = (path: string) => answered.get(path)!.html;
    for (const [path, { html }] of answered) {
      if (!html.includes('data-rendered') || /drawn-in-browser/.test(html))
        throw new Error(`${path}: the page came without the catalog's rendered screen`);
    }
    const staticCopy = new Map(
      [...answered].map(([path, page]) => [path, { ...page, html: staticCopyOf(page.html, stack.url) }]),
    );

    // 1. LCP: the shop's page and its static copy, alternating, and SEO.
    copies = await serveStaticCopies(staticCopy, stack.url);
    chrome = await launchChrome();
    const lcp: Record<'home' | 'product', Record<'shop' | 'static', LighthouseRun[]>> = {
      home: { shop: [], static: [] },
      product: { shop: [], static: [] },
    };
    for (const page of ['home', 'product'] as const) {
      const urls = { shop: `${stack.url}${paths[page]}`, static: `${copies.url}${paths[page]}` };
      // One untimed load of each first: the picture variants are made once, as for the first shopper.
      for (const url of Object.values(urls)) await lcpOf(url, chrome.port);
      for (let i = 0; i < LCP_RUNS; i++) {
        for (const variant of ['shop', 'static'] as const) {
          const found = await lcpOf(urls[variant], chrome.port);
          lcp[page][variant].push(found);
          log(
            `  ${page.padEnd(7)} ${variant.padEnd(6)} run ${i + 1}: LCP ${Math.round(found.lcpMs)} ms ` +
              `(observed ${Math.round(found.observedLcpMs)} ms)`,
          );
        }
      }
    }
    const seo: Record<keyof typeof paths, { score: number; failed: string[] }> = {
      home: await seoOf(`${stack.url}${paths.home}`, chrome.port),
      category: await seoOf(`${stack.url}${paths.category}`, chrome.port),
      product: await seoOf(`${stack.url}${paths.product}`, chrome.port),
    };
    for (const [page, found] of Object.entries(seo))
      log(
        `  SEO ${page}: ${found.score}${found.failed.length ? ` (failed: ${found.failed.join(', ')})` : ''}`,
      );
    chrome.kill();
    chrome = undefined;
    await new Promise<void>((resolve) => copies!.server.close(() => resolve()));
    copies = undefined;

    // 2. Throughput: the product page against a static file of its bytes, both through the gateway.
    const pageBytes = Buffer.byteLength(rendered(paths.product));
    writeFileSync(staticFile, rendered(paths.product));
    const targets = {
      page: `${stack.url}${paths.product}`,
      file: `${stack.url}/${staticFile.split('/').at(-1)!}`,
    };
    const fileBytes = (await get(targets.file, HTML_ACCEPT)).length;
    if (fileBytes !== pageBytes)
      throw new Error(`the static file answered ${fileBytes} bytes, not ${pageBytes}`);
    const phases = cache
      ? (['file', 'page', 'miss', 'miss', 'page', 'file'] as const)
      : (['file', 'page', 'page', 'file'] as const);
    const loads: Record<'file' | 'page' | 'miss', Load[]> = { file: [], page: [], miss: [] };
    const troubleBefore = troubleIn(stackLog).length;
    for (const phase of phases) {
      const found = await load(
        phase === 'file' ? targets.file : targets.page,
        connections,
        durationS,
        phase === 'miss',
      );
      loads[phase].push(found);
      log(
        `  ${phase.padEnd(4)} ${Math.round(found.requestsPerSecond)} req/s, p50 ${found.p50Ms} ms, p99 ${found.p99Ms} ms, ` +
          `${Math.round(found.bytesPerAnswer)} B per answer`,
      );
    }
    const loadTrouble = troubleIn(stackLog).slice(troubleBefore);

    // 3. CPU by part: the same product page, N requests one after the other to each part in turn.
    const fragmentQuery = new URLSearchParams({
      screen: 'ProductPage',
      route: '/product/:slug',
      url: paths.product,
      origin: stack.url,
    });
    const fragmentUrl = `${addresses.render}/fragment?${fragmentQuery}`;
    // Every request of a part measured on a render (a render-cache miss) asks for a URL of its own.
    let missed = 0;
    const miss = (path: string) => `${path}${path.includes('?') ? '&' : '?'}miss=cpu${(missed += 1)}`;
    const fragmentMissUrl = () =>
      `${addresses.render}/fragment?${new URLSearchParams({
        screen: 'ProductPage',
        route: '/product/:slug',
        url: miss(paths.product),
        origin: stack.url,
      })}`;
    const fragment = JSON.parse((await get(fragmentUrl, 'application/json')).toString('utf8')) as {
      answers: Record<string, unknown>;
    };
    const reads = Object.keys(fragment.answers);
    const bare = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': pageBytes });
      res.end(rendered(paths.product));
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
    const cpu: Record<'gateway' | 'hit' | 'pages' | 'render' | 'reads' | 'file' | 'client', Cpu> =
      {} as never;
    try {
      const parts = {
        client: () => get(bareUrl, HTML_ACCEPT),
        file: () => get(targets.file, HTML_ACCEPT),
        hit: () => get(targets.page, HTML_ACCEPT),
        gateway: () => get(miss(targets.page), HTML_ACCEPT),
        pages: () => get(miss(`${addresses.pages}${paths.product}`), HTML_ACCEPT),
        render: () => get(fragmentMissUrl(), 'application/json'),
        reads: async () => {
          for (const path of reads) await get(`${stack.url}${path}`, 'application/json');
        },
      };
      for (const [part, send] of Object.entries(parts) as [keyof typeof parts, () => Promise<unknown>][]) {
        cpu[part] = await cpuPer(stack, CPU_PAGES, async () => {
          await send();
        });
        log(
          `  CPU ${part.padEnd(7)} ${cpu[part].inProcessMs.toFixed(2)} ms in process + ${cpu[
            part
          ].servicesMs.toFixed(2)} ms services per request, ${cpu[part].wallMs.toFixed(1)} ms wall`,
        );
      }
    } finally {
      bare.close();
    }
    const cpuTrouble = troubleIn(stackLog).slice(troubleBefore + loadTrouble.length);

    // The parts, each the difference of two paths that differ by that part alone. A client's fetch of a page
    // costs about the same whether this process's client or the page server makes it, so it cancels out of
    // the differences except where the render service's answer is read by this client alone.
    const byPart = {
      'gateway + shell static server (page request)': cpu.gateway.inProcessMs - cpu.pages.inProcessMs,
      'page server (its render, composition, fetch of the fragment)':
        cpu.pages.inProcessMs - cpu.render.inProcessMs,
      'render service (renderFragment, its HTTP)':
        cpu.render.inProcessMs - cpu.reads.inProcessMs - cpu.client.inProcessMs,
      "render service's reads (its fetches + the gateway)": cpu.reads.inProcessMs,
      'services, database, NATS (out of process)': cpu.gateway.servicesMs,
    };
    const pageCpuMs = cpu.gateway.inProcessMs - cpu.client.inProcessMs + cpu.gateway.servicesMs;
    const hitCpuMs = cpu.hit.inProcessMs - cpu.client.inProcessMs + cpu.hit.servicesMs;
    const fileCpuMs = cpu.file.inProcessMs - cpu.client.inProcessMs + cpu.file.servicesMs;
    const partsNote = Object.entries(byPart)
      .map(([part, ms]) => `${part} ${ms.toFixed(2)} ms`)
      .join('; ');
    const cpuNotes =
      `${CPU_PAGES} sequential GETs of ${paths.product} per path (after ${Math.max(3, CPU_PAGES / 10)} untimed), ` +
      `each with a query of its own (?miss=cpu<n>) so that every page is rendered (a render-cache miss), but for the ` +
      `hit path (${cpu.hit.wallMs.toFixed(1)} ms wall); ` +
      `process.cpuUsage() of this process (gateway, shell static server, page server, render service: all in process) ` +
      `and /proc clocks of the services; the client's own cost (the same bytes from a bare node:http server, ` +
      `${cpu.client.inProcessMs.toFixed(2)} ms) taken off. Per page by part: ${partsNote}. ` +
      `The render service was asked at the root tree position (no position parameter); it reads ${reads.length} paths ` +
      `(${reads.join(', ')}). Wall time per page: through the gateway ${cpu.gateway.wallMs.toFixed(1)} ms, page server ` +
      `${cpu.pages.wallMs.toFixed(1)} ms, render service ${cpu.render.wallMs.toFixed(1)} ms, its reads ` +
      `${cpu.reads.wallMs.toFixed(1)} ms, static file ${cpu.file.wallMs.toFixed(1)} ms.` +
      (cpuTrouble.length ? ` Logged while measuring: ${cpuTrouble.slice(0, 3).join(' | ')}.` : '');

    const lcpFigure = (page: 'home' | 'product'): Figure => {
      const runs = lcp[page];
      const ms = (each: LighthouseRun[]) => each.map((r) => Math.round(r.lcpMs)).join('/');
      return figure({
        id: `server-rendering.lcp-${page}`,
        section: 'server rendering',
        ...shopLcpAgainstStatic(runs, {
          shop: `Lighthouse mobile LCP of the rendered ${page === 'home' ? '/' : 'product page'}`,
          static: 'the same HTML without its scripts, from a bare static server',
        }),
        target: LCP_TARGET,
        notes:
          `${paths[page]}: median of ${LCP_RUNS} Lighthouse runs each (mobile defaults, simulated throttling: ` +
          `1.6 Mbps, 150 ms RTT, 4× CPU), alternating, after one untimed warm-up each. ` +
          `Page ${Buffer.byteLength(rendered(paths[page]))} B as rendered, ${Buffer.byteLength(
            staticCopy.get(paths[page])!.html,
          )} B without scripts, ${answered.get(paths[page])!.encoding ?? 'uncompressed'} as the shop sent it (the copy likewise). ` +
          `Observed (unthrottled) LCP, median: shop ${Math.round(median(runs.shop.map((r) => r.observedLcpMs)))} ms, ` +
          `static ${Math.round(median(runs.static.map((r) => r.observedLcpMs)))} ms. ` +
          (lighthouse.failures.length ? `Lighthouse runs retried: ${lighthouse.failures.join(', ')}. ` : '') +
          `shop: LCP ${ms(runs.shop)} ms, element \`${runs.shop[0]?.lcpElement}\`; ` +
          `static: LCP ${ms(runs.static)} ms, element \`${runs.static[0]?.lcpElement}\`.`,
      });
    };
    const seoFigure = (page: keyof typeof paths): Figure =>
      figure({
        id: `server-rendering.seo-${page}`,
        section: 'server rendering',
        measured: {
          what: `Lighthouse SEO score of the rendered ${paths[page]}`,
          value: seo[page].score,
          unit: '',
        },
        reference: { what: 'a full score', value: 1, unit: '' },
        better: 'higher',
        target: SEO_TARGET,
        notes: seo[page].failed.length ? `audits not passed: ${seo[page].failed.join(', ')}` : undefined,
      });
    const what = (target: string) => `GET ${paths.product} ${target}, ${connections} connections`;
    const fileReference = {
      what: what(`as a static file of the same ${pageBytes} B, through the gateway`),
      value: meanOf(loads.file, 'requestsPerSecond'),
      unit: 'req/s',
    };
    const loadNotes =
      `${durationS} s per phase after ${WARM_UP_S} s warm-up, mirrored (${phases.join(' ')}); no Accept-Encoding ` +
      `(identity bodies). page: ${describeLoads(loads.page)}; static file: ${describeLoads(loads.file)}` +
      (cache ? `; every page a miss (?miss=<random id>): ${describeLoads(loads.miss)}` : '') +
      `. ${cache ? `Render cache found (${cache}): the page phases are hits.` : 'The render service answered without X-Render-Cache (no cache): every page is rendered.'} ` +
      (loadTrouble.length
        ? `${loadTrouble.length} log lines of trouble under load (a fragment left to the browser makes a smaller page), first: ${loadTrouble[0]}`
        : 'No fragment was left to the browser under load.');
    const throughput = (phase: 'page' | 'miss'): Figure =>
      figure({
        id: `server-rendering.throughput${phase === 'miss' ? '-miss' : cache ? '-hit' : ''}`,
        section: 'server rendering',
        measured: {
          what: what(
            `rendered${phase === 'miss' ? ', every page a render-cache miss' : cache ? ', render-cache hit' : ''}, through the gateway`,
          ),
          value: meanOf(loads[phase], 'requestsPerSecond'),
          unit: 'req/s',
        },
        reference: fileReference,
        better: 'higher',
        target: 0,
        reportOnly: true,
        notes: phase === 'page' ? loadNotes : undefined,
      });

    // The CPU figures of the page, each against the static file's, reported only.
    const againstStaticFileCpu = {
      reference: {
        what: 'CPU per static file of the same bytes through the gateway',
        value: round(fileCpuMs, 2),
        unit: 'ms',
      },
      better: 'lower',
      target: 0,
      reportOnly: true,
    } as const;
    // The parts of the rendered page's CPU, each against the whole page's, reported only.
    const againstWholePage = {
      reference: { what: 'the whole page', value: round(pageCpuMs, 2), unit: 'ms' },
      better: 'lower',
      target: 0,
      reportOnly: true,
    } as const;

    return [
      lcpFigure('home'),
      lcpFigure('product'),
      seoFigure('home'),
      seoFigure('category'),
      seoFigure('product'),
      throughput('page'),
      ...(cache ? [throughput('miss')] : []),
      figure({
        id: 'server-rendering.cpu-page-hit',
        section: 'server rendering',
        measured: {
          what: `CPU per ${paths.product} through the gateway from the render cache (hit), every part`,
          value: round(hitCpuMs, 2),
          unit: 'ms',
        },
        ...againstStaticFileCpu,
      }),
      figure({
        id: 'server-rendering.cpu-page',
        section: 'server rendering',
        measured: {
          what: `CPU per rendered ${paths.product} through the gateway (render-cache miss), every part`,
          value: round(pageCpuMs, 2),
          unit: 'ms',
        },
        ...againstStaticFileCpu,
        notes: cpuNotes,
      }),
      figure({
        id: 'server-rendering.cpu-render',
        section: 'server rendering',
        measured: {
          what: 'of which the render service (renderFragment), its reads not counted',
          value: round(byPart['render service (renderFragment, its HTTP)'], 2),
          unit: 'ms',
        },
        ...againstWholePage,
      }),
      figure({
        id: 'server-rendering.cpu-page-server',
        section: 'server rendering',
        measured: {
          what: "of which the page server (the shell's render and composition)",
          value: round(byPart['page server (its render, composition, fetch of the fragment)'], 2),
          unit: 'ms',
        },
        ...againstWholePage,
      }),
    ];
  } finally {
    chrome?.kill();
    if (copies) copies.server.close();
    rmSync(staticFile, { force: true });
    await stack.stop();
  }
}

export const serverRenderingSection: BenchSection = { name: 'server-rendering', run };
