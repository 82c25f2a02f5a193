import { act, render, renderHook, screen } from '@testing-library/react';
import { ToastContainer } from 'react-toastify';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@shop/state';
import { useAction } from './use-action';

/** A task that runs until told to end, as a call does until its answer arrives. */
function pending() {
  let settle!: (error?: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    settle = (error) => (error ? reject(error) : resolve());
  });
  let started = 0;
  const task = () => {
    started += 1;
    return done;
  };
  return { task, settle, started: () => started };
}

describe('useAction', () => {
  it('names what runs while it runs, and nothing after', async () => {
    const { result } = renderHook(() => useAction<string>());
    const call = pending();
    let running!: Promise<void>;
    act(() => {
      running = result.current.run(call.task, { key: 'row-1' });
    });
    expect(result.current.running).toBe('row-1');
    await act(async () => {
      call.settle();
      await running;
    });
    expect(result.current.running).toBeUndefined();
  });

  it('does not start the same action twice at once, and starts another', async () => {
    const { result } = renderHook(() => useAction<string>());
    const first = pending();
    const other = pending();
    await act(async () => {
      void result.current.run(first.task, { key: 'row-1' });
      void result.current.run(first.task, { key: 'row-1' });
      void result.current.run(other.task, { key: 'row-2' });
    });
    expect([first.started(), other.started()]).toEqual([1, 1]);
    // Once it has ended it can run again.
    await act(async () => first.settle());
    await act(async () => {
      void result.current.run(first.task, { key: 'row-1' });
    });
    expect(first.started()).toBe(2);
  });

  it("shows a failure in the server's words as an error toast, and ends the run", async () => {
    render(<ToastContainer />);
    const { result } = renderHook(() => useAction());
    await act(() => result.current.run(() => Promise.reject(new ApiError('Only 2 left in stock', 409))));
    expect(await screen.findByText('Only 2 left in stock')).toBeInTheDocument();
    expect(result.current.running).toBeUndefined();
  });

  it('hands the failure to the screen when it shows it itself, in its own words if it has them', async () => {
    const { result } = renderHook(() => useAction());
    const shown: string[] = [];
    await act(() =>
      result.current.run(() => Promise.reject(new ApiError('Service unavailable', 503)), {
        onFailure: (message) => shown.push(message),
      }),
    );
    await act(() =>
      result.current.run(() => Promise.reject(new ApiError('Invalid email or password', 401)), {
        failureMessage: () => 'Could not sign in',
        onFailure: (message) => shown.push(message),
      }),
    );
    expect(shown).toEqual(['Service unavailable', 'Could not sign in']);
  });
});
