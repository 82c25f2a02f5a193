import { act, fireEvent, screen } from '@testing-library/react';
import { Provider, createStore } from 'jotai';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, expect, it, vi } from 'vitest';
import { PriceFilter } from '../price-filter';
import { SortSelect } from '../sort-select';

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = '';
});

it('applies what was typed into the server-drawn fields before the code took the page over, and not before', async () => {
  const onApply = vi.fn();
  const page = (
    <Provider store={createStore()}>
      <MemoryRouter>
        <PriceFilter minPrice={100} onApply={onApply} clearHref="/search" />
      </MemoryRouter>
    </Provider>
  );
  const container = document.createElement('div');
  container.innerHTML = renderToString(page);
  document.body.append(container);
  // As the server drew it: the URL's range in the fields, and Apply not pressable yet.
  expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
  expect(screen.getByLabelText(/^Min price/)).toHaveValue(100);
  // The shopper types while the code is on its way: only the fields hold the text.
  (screen.getByLabelText(/^Max price/) as HTMLInputElement).value = '650';

  await act(async () => {
    root = hydrateRoot(container, page);
  });
  expect(screen.getByRole('button', { name: 'Apply' })).toBeEnabled();
  fireEvent.submit(screen.getByRole('button', { name: 'Apply' }).closest('form')!);

  expect(onApply).toHaveBeenCalledWith({ minPrice: 100, maxPrice: 650 });
});

it('offers the order of the results once the code has taken the page over', async () => {
  const page = <SortSelect sort="rating" onChange={() => undefined} />;
  const container = document.createElement('div');
  container.innerHTML = renderToString(page);
  document.body.append(container);
  expect(screen.getByLabelText('Sort by')).toBeDisabled();

  await act(async () => {
    root = hydrateRoot(container, page);
  });
  expect(screen.getByLabelText('Sort by')).toBeEnabled();
  expect(screen.getByLabelText('Sort by')).toHaveValue('rating');
});
