import styles from './checkout-placeholder.module.css';

/** A checkout screen that is not built yet. */
export function CheckoutPlaceholder({ title }: { title: string }) {
  return (
    <section className={styles['page']}>
      <title>{title}</title>
      <h1>{title}</h1>
      <p>This step is coming soon.</p>
    </section>
  );
}
