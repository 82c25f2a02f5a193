import { drawnByServer } from '@shop/ui/testing';
import { fireEvent, screen } from '@testing-library/react';
import { Provider, createStore } from 'jotai';
import { MemoryRouter } from 'react-router-dom';
import { expect, it, vi } from 'vitest';
import { PriceFilter } from '../price-filter';
import { SortSelect } from '../sort-select';

it('applies what was typed into the server-drawn fields before the code took the page over, and not before', async () => {
  const onApply = vi.fn();
  const page = (
    <Provider store={createStore()}>
      <MemoryRouter>
        <PriceFilter minPrice={100} onApply={onApply} clearHref="/search" />
      </MemoryRouter>
    </Provider>
  );
  const { hydrate } = drawnByServer(page);
  // As the server drew it: the URL's range in the fields, and Apply not pressable yet.
  expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
  expect(screen.getByLabelText(/^Min price/)).toHaveValue(100);
  // The shopper types while the code is on its way: only the fields hold the text.
  (screen.getByLabelText(/^Max price/) as HTMLInputElement).value = '650';

  await hydrate();
  expect(screen.getByRole('button', { name: 'Apply' })).toBeEnabled();
  fireEvent.submit(screen.getByRole('button', { name: 'Apply' }).closest('form')!);

  expect(onApply).toHaveBeenCalledWith({ minPrice: 100, maxPrice: 650 });
});

it('offers the order of the results once the code has taken the page over', async () => {
  const page = <SortSelect sort="rating" onChange={() => undefined} />;
  const { hydrate } = drawnByServer(page);
  expect(screen.getByLabelText('Sort by')).toBeDisabled();

  await hydrate();
  expect(screen.getByLabelText('Sort by')).toBeEnabled();
  expect(screen.getByLabelText('Sort by')).toHaveValue('rating');
});
