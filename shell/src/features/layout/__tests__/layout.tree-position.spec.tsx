import { atTreePosition } from '@shop/ui';
import { Provider, createStore } from 'jotai';
import { useId, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { Layout, SCREEN_TREE_POSITION } from '../layout';

/** What a screen's useId gives where it is rendered. */
function Probe() {
  return <output data-probe={useId()} />;
}

function idIn(tree: ReactNode): string | undefined {
  const html = renderToString(
    <Provider store={createStore()}>
      <MemoryRouter initialEntries={['/']}>{tree}</MemoryRouter>
    </Provider>,
  );
  return /data-probe="([^"]+)"/.exec(html)?.[1];
}

describe('where the layout places the routed screen, for the render services', () => {
  it('is SCREEN_TREE_POSITION: a screen rendered there alone gets the ids it gets inside the layout', () => {
    const inLayout = idIn(
      <Layout>
        <Probe />
      </Layout>,
    );
    expect(inLayout).toBeDefined();
    expect(idIn(atTreePosition(<Probe />, SCREEN_TREE_POSITION))).toBe(inLayout);
    // The position is what makes them equal: at the root the same screen gets another id.
    expect(idIn(<Probe />)).not.toBe(inLayout);
  });
});
