import { Button } from '@shop/ui';
import { useContext } from 'react';
import { RemoteRetryContext } from './remote-retry.context';
import styles from './remote-unavailable.module.css';

/** Friendly stand-in for a screen whose remote is down; the rest of the site keeps working. */
export function RemoteUnavailable({ onRetry }: { onRetry?: () => void }) {
  const retryFromRoute = useContext(RemoteRetryContext);
  const retry = onRetry ?? retryFromRoute;
  return (
    <section role="alert" className={styles['box']}>
      <h1 className={styles['title']}>This part of the shop is unavailable right now</h1>
      <p className={styles['text']}>The rest of the site still works. Please try again in a moment.</p>
      {retry && <Button onClick={retry}>Retry</Button>}
    </section>
  );
}
