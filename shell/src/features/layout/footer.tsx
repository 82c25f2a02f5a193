import { siteSettingsAtom, useContactDetails } from '@shop/state';
import { useAtomValue } from 'jotai';
import { useRef } from 'react';
import { Link } from 'react-router-dom';
import styles from './footer.module.css';
import { useNearViewport } from './use-near-viewport';

const STORE_LINKS = [
  { to: '/about#about', label: 'About Us' },
  { to: '/about#faq', label: 'FAQ' },
  { to: '/about#testimonials', label: 'Review' },
  { to: '/about#services', label: 'Services' },
];

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
        <section className={styles['brand']} aria-labelledby="footer-brand">
          <h2 id="footer-brand" className={styles['heading']}>
            {websiteName}
          </h2>
          <p>
            Our mission is to supply high-quality firearms and accessories, backed by customer service you can
            count on and an uncompromising commitment to safety.
          </p>
        </section>
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact" className={styles['heading']}>
            Contact
          </h2>
          <ul className={`${styles['list']} ${styles['contact']}`}>{nearViewport && <ContactItems />}</ul>
        </section>
        <nav aria-labelledby="footer-store">
          <h2 id="footer-store" className={styles['heading']}>
            Store
          </h2>
          <ul className={styles['list']}>
            {STORE_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-legal">
          <h2 id="footer-legal" className={styles['heading']}>
            Legal
          </h2>
          <ul className={styles['list']}>
            <li>
              <Link to="/legal">Terms and Condition</Link>
            </li>
          </ul>
        </nav>
      </div>
      <p className={styles['copyright']}>
        © {new Date().getFullYear()} {websiteName}. All rights reserved.
      </p>
    </footer>
  );
}
