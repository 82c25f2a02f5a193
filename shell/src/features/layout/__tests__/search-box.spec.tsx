import { act, fireEvent, screen } from '@testing-library/react';
import { Provider, createStore } from 'jotai';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, expect, it } from 'vitest';
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

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = '';
});

it('searches for what was typed into the server-drawn field before the code took the page over', async () => {
  const container = document.createElement('div');
  container.innerHTML = renderToString(page);
  document.body.append(container);
  // The shopper types while the page's code is still on its way: only the field holds the text.
  (container.querySelector('input[name="query"]') as HTMLInputElement).value = 'glock 19';

  await act(async () => {
    root = hydrateRoot(container, page);
  });
  fireEvent.submit(screen.getByRole('search'));

  expect(screen.getByTestId('location')).toHaveTextContent('/search?query=glock%2019');
});
