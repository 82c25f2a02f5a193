// docs/performance.md, "The grid (LCP)": Lighthouse (mobile defaults: Moto G Power screen, simulated slow 4G
// and 4× CPU slowdown) on the shop's `/` against a static HTML page of the same grid, in the same run: the
// same products, the same image URLs and attributes (srcset of the media service's variants, sizes,
// fetchpriority), the images fetched from the same gateway on the same origin. What is left between the two
// is what the shop's own page costs (scripts, the remote's load, the catalogue call), which is what the
// target bounds: LCP(shop) ≤ 2 × LCP(static).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Product, mediaSrcSet } from '@shop/contracts';
import { CARD_IMAGE_SIZES, PRODUCT_GRID_FIRST_ROW } from '@shop/ui/product-grid-layout';
import { type BenchContext, type BenchSection, type Figure, figure, goalFigure } from '../lib/figure.js';
import { shopLcpAgainstStatic } from '../lib/lcp-figure.js';
import { launchChrome, lcpElementOf, lighthouseIn, median } from '../lib/lighthouse.js';
import { passOn } from '../lib/pass-on.js';

/** Measured runs per page (after one untimed warm-up each); LCP_RUNS overrides. */
const RUNS = Number(process.env['LCP_RUNS'] ?? 3);
const TARGET = 2;
/** A folder to write each Lighthouse result to (LCP_LHR_DIR), for diagnosis. */
const LHR_DIR = process.env['LCP_LHR_DIR'];

const DESCRIPTION_WORDS = 10;

interface PageRun {
  lcpMs: number;
  tbtMs: number;
  cls: number;
  score: number;
  lcpElement: string;
  /**
   * Lighthouse's measure of the host's CPU (`environment.benchmarkIndex`). Its simulated mobile throttling
   * multiplies the main thread's observed work by 4 whatever the host: on a slower host every task is
   * longer and more of it counts as blocking, so TBT is read beside this index.
   */
  benchmarkIndex: number;
}

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

function truncateWords(text: string, words: number): string {
  const all = text.split(/\s+/).filter(Boolean);
  return all.length > words ? `${all.slice(0, words).join(' ')} .....` : text;
}

/** One card, with the markup and image attributes of mf-catalog's ProductCard. */
function staticCard(product: Product, index: number): string {
  const image = product.image[0];
  const eager = index < PRODUCT_GRID_FIRST_ROW;
  const srcSet = image ? mediaSrcSet(image) : undefined;
  const picture = image
    ? `<img src="${escapeHtml(image)}"${srcSet ? ` srcset="${escapeHtml(srcSet)}" sizes="${CARD_IMAGE_SIZES}"` : ''} alt="${escapeHtml(
        product.name,
      )}" width="640" height="480" loading="${eager ? 'eager' : 'lazy'}"${
        eager ? ' fetchpriority="high"' : ''
      } decoding="async">`
    : '<span class="no-image">No image</span>';
  return `<li><article class="card">
<a class="image-link" href="/product/${encodeURIComponent(product.slug)}">${picture}</a>
<div class="body"><h2><a href="/product/${encodeURIComponent(product.slug)}">${escapeHtml(product.name)}</a></h2>
<p class="description">${escapeHtml(truncateWords(product.description, DESCRIPTION_WORDS))}</p>
<p class="price">$${product.price.toFixed(2)}</p>
<button type="button"${product.countInStock === 0 ? ' disabled>Sold Out' : '>Add to Cart'}</button></div>
</article></li>`;
}

/** The same grid as the shop's home, as one HTML file with its CSS inline and no script. */
export function staticGridPage(products: readonly Product[]): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Featured Products</title>
<style>
body{margin:0;font-family:system-ui,sans-serif;color:#212529;background:#fff}
main{max-width:1320px;margin:0 auto;padding:0 1rem 2rem}
h1{margin:1rem 0;font-size:1.6rem}
ul{display:grid;grid-template-columns:repeat(1,minmax(0,1fr));gap:1rem;margin:0;padding:0;list-style:none}
@media (min-width:576px){ul{grid-template-columns:repeat(2,minmax(0,1fr))}}
@media (min-width:768px){ul{grid-template-columns:repeat(3,minmax(0,1fr))}}
@media (min-width:992px){ul{grid-template-columns:repeat(4,minmax(0,1fr))}}
li{min-width:0}
.card{display:flex;flex-direction:column;height:100%;border:1px solid #dee2e6;border-radius:8px;overflow:hidden}
.image-link{display:block;aspect-ratio:4/3;background:#f1f3f5}
.image-link img{width:100%;height:100%;object-fit:cover}
.body{display:flex;flex:1;flex-direction:column;gap:.5rem;padding:1rem}
h2{margin:0;font-size:1.1rem}
h2 a{color:inherit;text-decoration:none}
.description{margin:0;color:#6c757d;flex:1}
.price{margin:0;font-size:1.2rem;font-weight:700}
button{padding:.6rem 1rem;border:none;border-radius:6px;background:#0d6efd;color:#fff;font-weight:600}
</style></head>
<body><main><h1>Featured Products</h1><ul aria-label="Products">
${products.map(staticCard).join('\n')}
</ul></main></body></html>
`;
}

/**
 * Serves the static page at `/` and passes every other request (the images) to the gateway, so
 * both pages fetch their pictures from one origin through the same gateway.
 */
async function serveStaticGrid(html: string, gatewayUrl: string): Promise<{ url: string; server: Server }> {
  const gateway = new URL(gatewayUrl);
  const server = createServer((incoming, outgoing) => {
    if (incoming.url === '/' || incoming.url === '/index.html') {
      outgoing.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
      outgoing.end(html);
      return;
    }
    passOn(gateway, incoming, outgoing);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

/** Lighthouse as this section runs it: the runs it failed and tried again are named in the figure's notes. */
const lighthouse = lighthouseIn(LHR_DIR);

async function audit(url: string, port: number): Promise<PageRun> {
  const lhr = await lighthouse.of(url, port, ['performance']);
  const value = (id: string): number => {
    const found = lhr.audits[id]?.numericValue;
    if (found === undefined) throw new Error(`Lighthouse on ${url} measured no ${id}`);
    return found;
  };
  return {
    lcpMs: value('largest-contentful-paint'),
    tbtMs: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    score: lhr.categories['performance']?.score ?? Number.NaN,
    lcpElement: lcpElementOf(lhr),
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? Number.NaN,
  };
}

/** The first screen's main thread (docs/performance.md, "The hot paths' goals"): total blocking time and the performance score. */
const MAIN_THREAD_GOALS = [
  {
    id: 'blocking-time',
    what: 'total blocking time',
    unit: 'ms',
    goal: 100,
    better: 'lower',
    of: (run: PageRun) => run.tbtMs,
    format: (value: number) => `${Math.round(value)} ms`,
  },
  {
    id: 'performance-score',
    what: 'performance score',
    unit: '',
    goal: 0.98,
    better: 'higher',
    of: (run: PageRun) => run.score,
    format: (value: number) => value.toFixed(2),
  },
] as const;

function summary(name: string, runs: PageRun[]): string {
  const ms = (values: number[]) => values.map((v) => Math.round(v)).join('/');
  return (
    `${name}: LCP ${ms(runs.map((r) => r.lcpMs))} ms, TBT median ${Math.round(median(runs.map((r) => r.tbtMs)))} ms, ` +
    `CLS max ${Math.max(...runs.map((r) => r.cls)).toFixed(3)}, score median ${median(runs.map((r) => r.score)).toFixed(2)}, ` +
    `host benchmark index ${ms(runs.map((r) => r.benchmarkIndex))}, ` +
    `LCP element \`${runs[0]?.lcpElement ?? 'unknown'}\``
  );
}

async function run({ stack, log }: BenchContext): Promise<Figure[]> {
  lighthouse.failures.length = 0;
  const listed = await fetch(`${stack.url}/api/products`);
  if (!listed.ok) throw new Error(`GET /api/products answered ${listed.status}`);
  const products = (await listed.json()) as Product[];
  const staticGrid = await serveStaticGrid(staticGridPage(products), stack.url);
  const chrome = await launchChrome();
  const pages = { shop: `${stack.url}/`, static: staticGrid.url };
  const runs: Record<keyof typeof pages, PageRun[]> = { shop: [], static: [] };
  try {
    // One untimed load of each first: it makes the image variants the grid asks for (once, as the
    // first shopper would) and warms the services; Lighthouse clears the browser's cache every run.
    for (const url of Object.values(pages)) await audit(url, chrome.port);
    // Alternating, so a burst of load on the machine hits both pages alike.
    for (let i = 0; i < RUNS; i++) {
      for (const [name, url] of Object.entries(pages) as [keyof typeof pages, string][]) {
        const found = await audit(url, chrome.port);
        runs[name].push(found);
        log(
          `${name.padEnd(6)} run ${i + 1}: LCP ${Math.round(found.lcpMs)} ms, TBT ${Math.round(found.tbtMs)} ms, ` +
            `CLS ${found.cls.toFixed(3)}, score ${found.score.toFixed(2)}, host benchmark index ${Math.round(found.benchmarkIndex)}`,
        );
      }
    }
  } finally {
    chrome.kill();
    await new Promise<void>((resolve) => staticGrid.server.close(() => resolve()));
  }

  return [
    figure({
      id: 'lcp.shop-vs-static',
      section: 'lcp',
      ...shopLcpAgainstStatic(runs, {
        shop: "Lighthouse mobile LCP of the shop's /",
        static: 'a static HTML page of the same grid',
      }),
      target: TARGET,
      notes:
        `median of ${RUNS} Lighthouse runs each (mobile defaults, simulated throttling), after one untimed warm-up each; ` +
        `${products.length} products. ${summary('shop', runs.shop)}; ${summary('static', runs.static)}.` +
        (lighthouse.failures.length ? ` Lighthouse runs retried: ${lighthouse.failures.join(', ')}.` : ''),
    }),
    // The goals for the first screen's main thread, read from the same runs.
    ...MAIN_THREAD_GOALS.map(({ id, what, unit, goal, better, of, format }) =>
      goalFigure({
        id: `lcp.${id}`,
        section: 'lcp',
        measured: {
          what: `Lighthouse mobile ${what} of the shop's /`,
          value: median(runs.shop.map(of)),
          unit,
        },
        goal: { value: goal },
        better,
        notes: `median of the same ${RUNS} runs; the static grid's: ${format(median(runs.static.map(of)))}`,
      }),
    ),
  ];
}

export const lcpSection: BenchSection = { name: 'lcp', run };
