import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RemoteComponentModule } from '../remote-registry';
import { RemoteUnavailable } from '../remote-unavailable';

const loadRemoteComponent = vi.fn<(id: string) => Promise<RemoteComponentModule>>();
vi.mock('../remote-registry', () => ({ loadRemoteComponent: (id: string) => loadRemoteComponent(id) }));

const { RemoteRoute } = await import('../remote-route');

describe('RemoteRoute', () => {
  afterEach(() => {
    loadRemoteComponent.mockReset();
    vi.restoreAllMocks();
  });

  it("renders the remote's screen", async () => {
    loadRemoteComponent.mockResolvedValue({ default: () => <h1>Remote home</h1> });
    render(<RemoteRoute id="catalog/Works" />);
    expect(await screen.findByRole('heading', { name: 'Remote home' })).toBeInTheDocument();
  });

  it('shows the stand-in when loading fails, and loads again on Retry', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    loadRemoteComponent.mockRejectedValueOnce(new Error('connection refused'));
    loadRemoteComponent.mockResolvedValue({ default: () => <h1>Back again</h1> });
    render(<RemoteRoute id="catalog/Flaky" />);

    expect(await screen.findByText('This part of the shop is unavailable right now')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));

    expect(await screen.findByRole('heading', { name: 'Back again' })).toBeInTheDocument();
    expect(loadRemoteComponent).toHaveBeenCalledTimes(2);
  });

  it("retries from the runtime plugin's stand-in too", async () => {
    loadRemoteComponent.mockResolvedValueOnce({ default: RemoteUnavailable, remoteUnavailable: true });
    loadRemoteComponent.mockResolvedValue({ default: () => <h1>Recovered</h1> });
    render(<RemoteRoute id="checkout/CartPage" />);

    await userEvent.click(await screen.findByRole('button', { name: 'Retry' }));

    expect(await screen.findByRole('heading', { name: 'Recovered' })).toBeInTheDocument();
  });
});
