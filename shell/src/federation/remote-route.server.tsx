import { LoadingBox } from '@shop/ui';
import { Suspense, use } from 'react';
import { RemoteErrorBoundary } from './remote-error-boundary';
import { RemoteRetryContext } from './remote-retry.context';
import { FragmentSlot, ServerFragmentContext } from './server-fragment';

const noRetry = () => undefined;

/**
 * RemoteRoute on the page server (docs/decisions/0020): the same boundaries as the browser's (remote-route.tsx),
 * so the browser hydrates the screen where the server put it, with the remote's own render of the screen
 * in place of the screen, or left to the browser when there is none.
 */
export function RemoteRoute(_props: { id: string }) {
  const fragment = use(ServerFragmentContext) ?? { marker: null };
  return (
    <RemoteRetryContext value={noRetry}>
      <RemoteErrorBoundary onRetry={noRetry}>
        <Suspense fallback={<LoadingBox />}>
          <FragmentSlot fragment={fragment} />
        </Suspense>
      </RemoteErrorBoundary>
    </RemoteRetryContext>
  );
}
