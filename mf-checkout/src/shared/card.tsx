import type { ReactNode } from 'react';
import shared from './checkout.module.css';

export interface CardProps {
  /** The heading's id, which names the card. */
  id: string;
  title: ReactNode;
  children: ReactNode;
}

/** A part of a checkout screen (shipping, payment, items, summary): a card named by its heading. */
export function Card({ id, title, children }: CardProps) {
  return (
    <section className={shared['card']} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}
