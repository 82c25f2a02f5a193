import { useId } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { atTreePosition, formatTreePosition, parseTreePosition } from './tree-position';

function Probe() {
  return <output data-probe={useId()} />;
}

const idOf = (html: string) => /data-probe="([^"]+)"/.exec(html)?.[1];

describe('a screen rendered at the place the page puts it', () => {
  it('reads and writes positions, and refuses anything else', () => {
    expect(parseTreePosition('')).toEqual([]);
    expect(parseTreePosition('5.2')).toEqual([[5, 2]]);
    expect(parseTreePosition('5.2/3.0')).toEqual([
      [5, 2],
      [3, 0],
    ]);
    expect(
      formatTreePosition([
        [5, 2],
        [3, 0],
      ]),
    ).toBe('5.2/3.0');
    for (const bad of [
      '5',
      '5.5',
      '0.0',
      '65.1',
      '5.2/',
      'a.b',
      '5.2/3.0/1.0/1.0/1.0/1.0/1.0/1.0/1.0',
      '-1.0',
    ])
      expect(parseTreePosition(bad), bad).toBeUndefined();
  });

  it('gets the ids it gets among the same siblings, and others at the root', () => {
    const amongSiblings = idOf(
      renderToString(
        <div>
          <p />
          <p />
          <main>
            <Probe />
          </main>
          <p />
          <p />
        </div>,
      ),
    );
    expect(idOf(renderToString(<>{atTreePosition(<Probe />, [[5, 2]])}</>))).toBe(amongSiblings);
    expect(idOf(renderToString(<>{atTreePosition(<Probe />, [[5, 3]])}</>))).not.toBe(amongSiblings);
    expect(idOf(renderToString(<Probe />))).not.toBe(amongSiblings);
  });
});
