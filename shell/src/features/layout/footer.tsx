import { siteSettingsAtom, useContactDetails } from '@shop/state';
import { useAtomValue } from 'jotai';
import { useRef, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import styles from './footer.module.css';
import { useNearViewport } from './use-near-viewport';

const STORE_LINKS = [
  { to: '/about#about', label: 'About Us' },
  { to: '/about#faq', label: 'FAQ' },
  { to: '/about#testimonials', label: 'Review' },
  { to: '/about#services', label: 'Services' },
];

/** A column of the footer, named by its heading. */
function FooterColumn(props: {
  as: 'section' | 'nav';
  id: string;
  title: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const { as: Column, id, title, className, children } = props;
  return (
    <Column className={className} aria-labelledby={id}>
      <h2 id={id} className={styles['heading']}>
        {title}
      </h2>
      {children}
    </Column>
  );
}

/** The configured contact details (site.json). */
function ContactItems() {
  const contact = useContactDetails();
  return (
    <>
      {contact.location && <li>{contact.location}</li>}
      {contact.email && (
        <li>
          <a href={`mailto:${contact.email}`}>{contact.email}</a>
        </li>
      )}
    </>
  );
}

/** Footer (docs/product/screens.md, "Footer"): brand and mission, contact, store links, legal. */
export function Footer() {
  const { websiteName } = useAtomValue(siteSettingsAtom);
  const footer = useRef<HTMLElement>(null);
  // The footer starts below the fold (the main area is at least a screen tall): its contact details are asked
  // for once it comes near, not while the first screen's code, data and pictures are still on their way.
  const nearViewport = useNearViewport(footer);
  return (
    <footer ref={footer} className={styles['footer']}>
      <div className={styles['columns']}>
        <FooterColumn as="section" id="footer-brand" title={websiteName} className={styles['brand']}>
          <p>
            Our mission is to supply high-quality firearms and accessories, backed by customer service you can
            count on and an uncompromising commitment to safety.
          </p>
        </FooterColumn>
        <FooterColumn as="section" id="footer-contact" title="Contact">
          <ul className={`${styles['list']} ${styles['contact']}`}>{nearViewport && <ContactItems />}</ul>
        </FooterColumn>
        <FooterColumn as="nav" id="footer-store" title="Store">
          <ul className={styles['list']}>
            {STORE_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </FooterColumn>
        <FooterColumn as="nav" id="footer-legal" title="Legal">
          <ul className={styles['list']}>
            <li>
              <Link to="/legal">Terms and Condition</Link>
            </li>
          </ul>
        </FooterColumn>
      </div>
      <p className={styles['copyright']}>
        © {new Date().getFullYear()} {websiteName}. All rights reserved.
      </p>
    </footer>
  );
}
