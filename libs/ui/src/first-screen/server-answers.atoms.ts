import type { ServerAnswer } from '@shop/state/first-screen';
import { atom, type Getter, type PrimitiveAtom } from 'jotai';

// These atoms live here, not in @shop/state: a remote built now runs under shells of earlier releases, which
// provide their own (older) @shop/state to every remote through the share scope; a remote may use only what
// every such shell's @shop/state has. @shop/ui is bundled into each front-end instead, so each has a copy:
// the atoms are made once per page, under a global symbol, so the shell's copy and every remote's copy are
// the same atoms (the way the prefetched calls' registry is shared, libs/state/src/http/prefetch.ts).

const REGISTRY = Symbol.for('shop.first-screen-atoms');

interface FirstScreenAtoms {
  answers: PrimitiveAtom<Record<string, ServerAnswer>>;
  unanswered: PrimitiveAtom<Set<string> | null>;
  origin: PrimitiveAtom<string>;
}

function firstScreenAtoms(): FirstScreenAtoms {
  const global = globalThis as typeof globalThis & { [REGISTRY]?: FirstScreenAtoms };
  return (global[REGISTRY] ??= {
    answers: atom<Record<string, ServerAnswer>>({}),
    unanswered: atom<Set<string> | null>(null),
    origin: atom<string>(globalThis.location?.origin ?? 'http://localhost'),
  });
}

/**
 * Answers a render may take (docs/decisions/0020): on the server, one request's; in the browser, those the
 * page was rendered from, each until it is used once.
 */
export const serverAnswersAtom = firstScreenAtoms().answers;

/**
 * On the server, while a page's reads are being found: the paths read without an answer yet (the render
 * server fetches them and renders again). Null in the browser.
 */
export const unansweredReadsAtom = firstScreenAtoms().unanswered;

/** The public origin canonical URLs are made from: the page's own unless the server said otherwise. */
export const siteOriginAtom = firstScreenAtoms().origin;

/** The server's answer for this path, if the page was rendered with one. */
export function serverAnswerFor(get: Getter, path: string): ServerAnswer | undefined {
  const answers = get(serverAnswersAtom);
  return Object.hasOwn(answers, path) ? answers[path] : undefined;
}
