import { Fragment, type ReactNode } from 'react';

/**
 * Where a screen sits in the page's React tree, as React's `useId` sees it: the multi-child parents on the way
 * from the root, outermost first, each as [how many children, which one]. The shell's layout puts the routed
 * screen at such a place (shell/src/features/layout/layout.tsx); a remote that renders the screen on its own
 * on the server renders it at the same place, so the ids it draws are those the browser's hydration computes
 * (an id that differs breaks the `aria-controls` and `for` links between elements).
 */
export type TreePosition = ReadonlyArray<readonly [children: number, index: number]>;

const MAX_DEPTH = 8;
const MAX_CHILDREN = 64;

/** `5.2/3.0` → [[5, 2], [3, 0]]; undefined for anything else ('' is the root: []). */
export function parseTreePosition(text: string): TreePosition | undefined {
  if (text === '') return [];
  const steps = text.split('/');
  if (steps.length > MAX_DEPTH) return undefined;
  const position: Array<readonly [number, number]> = [];
  for (const step of steps) {
    const match = /^(\d{1,2})\.(\d{1,2})$/.exec(step);
    if (!match) return undefined;
    const children = Number(match[1]);
    const index = Number(match[2]);
    if (children < 1 || children > MAX_CHILDREN || index >= children) return undefined;
    position.push([children, index]);
  }
  return position;
}

/** The position as `parseTreePosition` reads it. */
export function formatTreePosition(position: TreePosition): string {
  return position.map(([children, index]) => `${children}.${index}`).join('/');
}

/** `node` rendered at `position`: among as many empty siblings as the page's tree has there. */
export function atTreePosition(node: ReactNode, position: TreePosition): ReactNode {
  return position.reduceRight<ReactNode>(
    (inner, [children, index]) =>
      Array.from({ length: children }, (_, at) =>
        at === index ? <Fragment key="screen">{inner}</Fragment> : null,
      ),
    node,
  );
}
