import type { SiteSettings } from '@shop/contracts';
import { siteSettingsAtom } from '@shop/state';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { imageFile, mediaUrl, renderScreen, ScriptedUpload, stubApi } from '@shop/ui/testing';
import WebsiteUpdatePage from '../website-update-page';

const ID = '64b7f0000000000000000009';
const record: SiteSettings = {
  _id: ID,
  siteName: 'Firearms Store',
  currency: '$',
  logo: '',
  lowStockThreshold: 5,
};
const LOGO = mediaUrl('logo.png');

const renderWebsite = () => renderScreen(<WebsiteUpdatePage />, { path: '/website-update' });

describe('Website Update screen', () => {
  const uploads = ScriptedUpload.forEachTest();
  afterEach(() => vi.unstubAllGlobals());

  it('edits the first record, uploads a logo with preview, and the shared settings follow at once', async () => {
    const api = stubApi({
      'GET /api/data/all-data': { body: [record, { ...record, _id: 'other', siteName: 'Second' }] },
      'PUT /api/data/update-data': {
        body: { _id: ID, siteName: 'Glock Depot', currency: '€', logo: LOGO, lowStockThreshold: 3 },
      },
    });
    const { store } = renderWebsite();

    expect(await screen.findByLabelText('Site Name')).toHaveValue('Firearms Store');
    expect(screen.getByLabelText('Currency')).toHaveValue('$');
    await userEvent.upload(screen.getByLabelText('Logo'), imageFile('logo.png'));
    act(() => uploads[0]!.answer(201, { url: LOGO }));
    expect(await screen.findByRole('img', { name: 'Site logo' })).toHaveAttribute('src', LOGO);

    await userEvent.clear(screen.getByLabelText('Site Name'));
    await userEvent.type(screen.getByLabelText('Site Name'), 'Glock Depot');
    await userEvent.clear(screen.getByLabelText('Currency'));
    await userEvent.type(screen.getByLabelText('Currency'), '€');
    expect(screen.getByLabelText('Low stock threshold')).toHaveValue(5);
    await userEvent.clear(screen.getByLabelText('Low stock threshold'));
    await userEvent.type(screen.getByLabelText('Low stock threshold'), '3');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));

    expect(await screen.findByText('Website data updated successfully')).toBeInTheDocument();
    expect(api.callsTo('PUT', '/api/data/update-data')[0]?.body).toEqual({
      id: ID,
      siteName: 'Glock Depot',
      currency: '€',
      logo: LOGO,
      lowStockThreshold: 3,
    });
    expect(store.get(siteSettingsAtom)).toEqual({ websiteName: 'Glock Depot', currency: '€', logo: LOGO });
  });

  it('says No data available when there is no settings record', async () => {
    stubApi({ 'GET /api/data/all-data': { body: [] } });
    renderWebsite();

    expect(await screen.findByText('No data available')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Update' })).toBeNull();
  });

  it('keeps the shared settings and shows the server’s refusal when the save fails', async () => {
    stubApi({
      'GET /api/data/all-data': { body: [record] },
      'PUT /api/data/update-data': {
        status: 400,
        body: { message: 'currency must be at most 5 characters' },
      },
    });
    const { store } = renderWebsite();
    const before = store.get(siteSettingsAtom);

    await userEvent.click(await screen.findByRole('button', { name: 'Update' }));

    expect(await screen.findByText('currency must be at most 5 characters')).toBeInTheDocument();
    expect(store.get(siteSettingsAtom)).toBe(before);
  });

  it('shows a spinner, then the red alert when the settings cannot be read', async () => {
    stubApi({ 'GET /api/data/all-data': { status: 502, body: { message: 'Service unavailable' } } });
    renderWebsite();

    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(await screen.findByRole('alert')).toHaveTextContent('Service unavailable');
  });
});
