import styles from './loading-box.module.css';

/** A spinner shown while a screen loads. */
export function LoadingBox({ label = 'Loading...' }: { label?: string }) {
  return (
    <div role="status" className={styles['wrapper']}>
      <span className={styles['spinner']} aria-hidden="true" />
      <span className={styles['label']}>{label}</span>
    </div>
  );
}
