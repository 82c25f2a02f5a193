import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DeferredToastContainer, showToast } from './toasts';

describe('deferred toasts', () => {
  it('mounts the container at the shopper’s first action, not with the page', async () => {
    const { unmount } = render(<DeferredToastContainer />);
    // Long enough for the library to arrive had it been asked for with the page.
    await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(screen.queryByRole('region', { name: /Notifications/ })).not.toBeInTheDocument();
    act(() => {
      fireEvent.pointerDown(document.body);
    });
    expect(await screen.findByRole('region', { name: /Notifications/ })).toBeInTheDocument();
    unmount();
  });

  it('shows a toast asked for before the container was there', async () => {
    showToast('error', 'The data service is unavailable');
    render(<DeferredToastContainer />);
    expect(await screen.findByText('The data service is unavailable')).toBeInTheDocument();
  });
});
