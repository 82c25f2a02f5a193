import type { FeatureFlag } from '@shop/contracts';
import { userInfoAtom } from '@shop/state';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { columnHeaders, json, renderScreen, stubApi } from '@shop/ui/testing';
import FaultFlagsPage from '../fault-flags-page';

const refusals: FeatureFlag = {
  key: 'orderPlacementFailure',
  description: 'Orders refuses this share of order placements with a 503, before any stock is taken.',
  service: 'orders',
  variants: [
    { name: 'off', value: 0 },
    { name: '10%', value: 0.1 },
    { name: '50%', value: 0.5 },
  ],
  variant: 'off',
};
const readiness: FeatureFlag = {
  key: 'readinessProbeFailure',
  description: 'The service named fails its readiness probe.',
  service: 'every service',
  variants: [
    { name: 'off', value: '' },
    { name: 'products', value: 'products' },
  ],
  variant: 'products',
  switchedAt: '2026-11-29T10:00:00.000Z',
  switchedBy: 'u-admin',
};

function renderFlags() {
  const store = createStore();
  store.set(userInfoAtom, {
    _id: 'u-admin',
    name: 'Ada',
    email: 'ada@shop.local',
    isAdmin: true,
    token: 'tok',
  });
  return renderScreen(<FaultFlagsPage />, { path: '/fault-flags', url: '/fault-flags', store });
}

const rowOf = (key: string) => screen.getByRole('rowheader', { name: new RegExp(`^${key}`) }).closest('tr')!;

describe('Fault Flags screen', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists each flag with what it breaks, its service, its state among its variants and when it was switched', async () => {
    stubApi({ 'GET /api/data/flags': { body: [refusals, readiness] } });
    renderFlags();

    const table = await screen.findByRole('table');
    expect(columnHeaders(table)).toEqual(['FLAG', 'SERVICE', 'STATE', 'LAST SWITCHED']);
    expect(rowOf('orderPlacementFailure')).toHaveTextContent(refusals.description);
    const state = within(rowOf('orderPlacementFailure')).getByRole('combobox', {
      name: 'State of orderPlacementFailure',
    });
    expect(state).toHaveValue('off');
    expect(
      within(state)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Off', '10%', '50%']);
    expect(within(rowOf('orderPlacementFailure')).getAllByRole('cell').at(-1)).toHaveTextContent('—');
    expect(within(rowOf('readinessProbeFailure')).getByRole('combobox')).toHaveValue('products');
    expect(rowOf('readinessProbeFailure')).toHaveTextContent('every service');
  });

  it("switches a flag to the variant chosen, says so and shows the flag's new state", async () => {
    let chosen = 'off';
    const api = stubApi({
      'GET /api/data/flags': () => ({ body: [{ ...refusals, variant: chosen }] }),
      'PUT /api/data/flags/orderPlacementFailure': (call) => {
        chosen = (call.body as { variant: string }).variant;
        return { body: { ...refusals, variant: chosen } };
      },
    });
    renderFlags();

    await userEvent.selectOptions(
      await screen.findByRole('combobox', { name: 'State of orderPlacementFailure' }),
      '50%',
    );

    expect(await screen.findByText('orderPlacementFailure switched to 50%')).toBeInTheDocument();
    expect(api.callsTo('PUT', '/api/data/flags/orderPlacementFailure').map((call) => call.body)).toEqual([
      { variant: '50%' },
    ]);
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'State of orderPlacementFailure' })).toHaveValue('50%'),
    );

    await userEvent.selectOptions(
      screen.getByRole('combobox', { name: 'State of orderPlacementFailure' }),
      'off',
    );
    expect(await screen.findByText('orderPlacementFailure is off')).toBeInTheDocument();
  });

  it("shows the service's refusal and keeps the state the flag has", async () => {
    stubApi({
      'GET /api/data/flags': { body: [refusals] },
      'PUT /api/data/flags/orderPlacementFailure': json(403, { message: 'Admin access required' }),
    });
    renderFlags();

    await userEvent.selectOptions(
      await screen.findByRole('combobox', { name: 'State of orderPlacementFailure' }),
      '10%',
    );

    expect(await screen.findByText('Admin access required')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'State of orderPlacementFailure' })).toHaveValue('off');
  });
});
