import styles from './upload-progress.module.css';

/** An upload's progress, 0–100, as a labelled bar with the percentage written out. */
export function UploadProgress({ value, label = 'Upload progress' }: { value: number; label?: string }) {
  const percent = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div className={styles['progress']}>
      <progress className={styles['bar']} max={100} value={percent} aria-label={label} />
      <span className={styles['value']} aria-hidden="true">
        {percent}%
      </span>
    </div>
  );
}
