import { drawnByServer } from '@shop/ui/testing';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DeferredPopup, type DeferredPopupProps } from '../deferred-popup';
import { useTriggerTakeover } from '../use-trigger-takeover';

/** Stands for the real popup: shows how it was started and the keys its trigger got, as the real ones take over. */
function RealPopup(takeover: DeferredPopupProps) {
  const trigger = useTriggerTakeover<HTMLButtonElement>(takeover);
  const [keys, setKeys] = useState<string[]>([]);
  return (
    <>
      <button ref={trigger} type="button" onKeyDown={(event) => setKeys((seen) => [...seen, event.key])}>
        Real menu
      </button>
      {takeover.openNow && <p role="status">open</p>}
      <p data-testid="keys">{keys.join(',')}</p>
    </>
  );
}

function renderDeferred(load: () => Promise<typeof RealPopup> = vi.fn(async () => RealPopup)) {
  render(
    <>
      <DeferredPopup load={load} haspopup="menu">
        Menu
      </DeferredPopup>
      <button type="button">Elsewhere</button>
    </>,
  );
  return load;
}

describe('DeferredPopup', () => {
  it('fetches nothing until the shopper reaches for the button', async () => {
    const load = renderDeferred();
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-haspopup', 'menu');
    await userEvent.click(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(load).not.toHaveBeenCalled();
  });

  it('opens the real popup when the button was pressed', async () => {
    const load = renderDeferred();
    await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
    expect(await screen.findByRole('status')).toHaveTextContent('open');
    expect(load).toHaveBeenCalledTimes(1);
    // Mounted open, the popup takes the focus itself: the trigger taking it would close a menu in place.
    expect(screen.getByRole('button', { name: 'Real menu' })).not.toHaveFocus();
  });

  it('swaps in the real trigger with the focus, closed, when the shopper tabbed to it', async () => {
    renderDeferred();
    await userEvent.tab();
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Real menu' })).toHaveFocus());
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('presses the keys typed ahead again, in order, on the real trigger', async () => {
    let arrive: (popup: typeof RealPopup) => void = () => undefined;
    renderDeferred(() => new Promise((resolve) => (arrive = resolve)));
    await userEvent.tab();
    await userEvent.keyboard('{Enter}{ArrowDown}x');
    expect(screen.getByRole('button', { name: 'Menu' })).toBeInTheDocument();

    arrive(RealPopup);
    // The real trigger takes the focus once it is mounted (an effect after it appears: on a loaded
    // machine the button can be found a moment before it is focused).
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Real menu' })).toHaveFocus());
    await vi.waitFor(() => expect(screen.getByTestId('keys')).toHaveTextContent(/^Enter,ArrowDown$/));
    // Enter was kept for the real trigger, not turned into a click that opens it a second way.
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('keeps the stand-in and tries again on the next press when the code cannot be fetched', async () => {
    let offline = true;
    const load = vi.fn(async () => {
      if (offline) throw new Error('offline');
      return RealPopup;
    });
    renderDeferred(load);
    await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
    expect(screen.getByRole('button', { name: 'Menu' })).toBeInTheDocument();
    expect(load).toHaveBeenCalled();

    offline = false;
    await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
    expect(await screen.findByRole('status')).toHaveTextContent('open');
  });

  it('is drawn disabled by the server and enabled once the page has taken the HTML over', async () => {
    const drawn = drawnByServer(
      <DeferredPopup load={vi.fn(async () => RealPopup)} haspopup="dialog">
        All
      </DeferredPopup>,
    );
    // Before the code runs a press would reach no handler: the button says it cannot be used yet.
    expect(screen.getByRole('button', { name: 'All' })).toBeDisabled();

    await drawn.hydrate();
    expect(screen.getByRole('button', { name: 'All' })).toBeEnabled();
  });
});
