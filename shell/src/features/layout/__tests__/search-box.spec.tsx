import { drawnByServer } from '@shop/ui/testing';
import { fireEvent, screen } from '@testing-library/react';
import { Provider, createStore } from 'jotai';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { expect, it } from 'vitest';
import { SearchBox } from '../search-box';

function Where() {
  const location = useLocation();
  return <p data-testid="location">{location.pathname + location.search}</p>;
}

const page = (
  <Provider store={createStore()}>
    <MemoryRouter initialEntries={['/']}>
      <SearchBox />
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>
  </Provider>
);

it('searches for what was typed into the server-drawn field before the code took the page over', async () => {
  const { container, hydrate } = drawnByServer(page);
  // The shopper types while the page's code is still on its way: only the field holds the text.
  (container.querySelector('input[name="query"]') as HTMLInputElement).value = 'glock 19';

  await hydrate();
  fireEvent.submit(screen.getByRole('search'));

  expect(screen.getByTestId('location')).toHaveTextContent('/search?query=glock%2019');
});
