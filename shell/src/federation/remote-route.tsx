import { LoadingBox } from '@shop/ui';
import { Suspense, lazy, useCallback, useState, type LazyExoticComponent, type ComponentType } from 'react';
import { RemoteErrorBoundary } from './remote-error-boundary';
import { loadRemoteComponent } from './remote-registry';
import { RemoteRetryContext } from './remote-retry.context';

const screens = new Map<string, LazyExoticComponent<ComponentType>>();

// One lazy component per exposed screen, so coming back to a screen does not suspend again. A stand-in
// (remote down) is not kept: the next visit tries the remote afresh.
function screenFor(id: string): LazyExoticComponent<ComponentType> {
  let screen = screens.get(id);
  if (!screen) {
    screen = lazy(async () => {
      try {
        const module = await loadRemoteComponent(id);
        if (module.remoteUnavailable) screens.delete(id);
        return module;
      } catch (error) {
        screens.delete(id);
        throw error;
      }
    });
    screens.set(id, screen);
  }
  return screen;
}

/**
 * A route screen that lives in a remote ('catalog/HomePage'), with loading, failure and Retry handled. The
 * page server's build takes remote-route.server.tsx instead (the server build resolves `.server.tsx`
 * first): the remote's own render in the same boundaries, which this component hydrates.
 */
export function RemoteRoute({ id }: { id: string }) {
  // Routes key this component by id, so the screen only changes on Retry.
  const [Screen, setScreen] = useState(() => screenFor(id));
  const retry = useCallback(() => {
    screens.delete(id);
    setScreen(() => screenFor(id));
  }, [id]);

  return (
    <RemoteRetryContext value={retry}>
      <RemoteErrorBoundary onRetry={retry}>
        <Suspense fallback={<LoadingBox />}>
          <Screen />
        </Suspense>
      </RemoteErrorBoundary>
    </RemoteRetryContext>
  );
}
