import { Link } from 'react-router-dom';
import styles from './not-found-page.module.css';

/** Any path the route table does not know. */
export function NotFoundPage() {
  return (
    <section className={styles['page']}>
      <title>Page Not Found</title>
      <h1>Page Not Found</h1>
      <p>
        There is nothing here. <Link to="/">Back to the shop</Link>
      </p>
    </section>
  );
}
