import type { ReactNode } from 'react';
import shared from './admin.module.css';

/**
 * An admin screen's frame (docs/product/screens.md, "Admin screens"): its title, in the tab and as its
 * heading, over its content.
 */
export function AdminScreen({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className={shared['page']}>
      <title>{title}</title>
      <h1 className={shared['heading']}>{title}</h1>
      {children}
    </section>
  );
}
