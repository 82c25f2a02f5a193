import styles from './placeholder-page.module.css';

/** A screen of the route table that is not built yet. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <section className={styles['page']}>
      <title>{title}</title>
      <h1>{title}</h1>
      <p>This page is coming soon.</p>
    </section>
  );
}
