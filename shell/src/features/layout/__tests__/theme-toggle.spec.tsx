import { drawnByServer } from '@shop/ui/testing';
import { screen } from '@testing-library/react';
import { Provider, createStore } from 'jotai';
import { expect, it } from 'vitest';
import { ThemeToggle } from '../theme-toggle';

it('is drawn disabled by the server and works once the page has taken the HTML over', async () => {
  const drawn = drawnByServer(
    <Provider store={createStore()}>
      <ThemeToggle />
    </Provider>,
  );
  // A press before the code runs would reach no handler: the button says it cannot be used yet.
  expect(screen.getByRole('button', { name: 'Switch to dark mode' })).toBeDisabled();

  await drawn.hydrate();
  expect(screen.getByRole('button', { name: /Switch to (dark|light) mode/ })).toBeEnabled();
});
