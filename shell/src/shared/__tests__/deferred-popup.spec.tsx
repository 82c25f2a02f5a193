import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DeferredPopup, type DeferredPopupProps } from '../deferred-popup';
import { useFocusOnMount } from '../use-focus-on-mount';

/** Stands for the real popup: says how it was started, and takes the focus as the real triggers do. */
function RealPopup({ defaultOpen, focusTrigger }: DeferredPopupProps) {
  const trigger = useFocusOnMount<HTMLButtonElement>(focusTrigger);
  return (
    <>
      <button ref={trigger} type="button">
        Real menu
      </button>
      {defaultOpen && <p role="status">open</p>}
    </>
  );
}

function renderDeferred(load = vi.fn(async () => RealPopup)) {
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
    const standIn = screen.getByRole('button', { name: 'Menu' });
    expect(standIn).toHaveAttribute('aria-haspopup', 'menu');
    await userEvent.click(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(load).not.toHaveBeenCalled();
  });

  it('opens the real popup when the button was pressed', async () => {
    const load = renderDeferred();
    await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
    expect(await screen.findByRole('status')).toHaveTextContent('open');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('swaps in the real trigger with the focus, closed, when the shopper tabbed to it', async () => {
    renderDeferred();
    await userEvent.tab();
    expect(await screen.findByRole('button', { name: 'Real menu' })).toHaveFocus();
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
});
