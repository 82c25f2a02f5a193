import { PageMetadata } from '../../shared/metadata/page-metadata';
import { siteSettingsAtom, useContactDetails } from '@shop/state';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import styles from './legal-page.module.css';

/**
 * `/legal` (docs/product/screens.md, "Legal"): the terms, with the $1,000 liability cap and the
 * under-thirteen statement.
 */
export default function LegalPage() {
  const { websiteName } = useAtomValue(siteSettingsAtom);
  const store = websiteName || 'the store';
  // The same configured address as the footer's (site.json); nothing is shown until it is known.
  const { email } = useContactDetails();

  return (
    <article className={styles['page']}>
      <title>Terms and Conditions</title>
      <PageMetadata title="Terms and Conditions" canonicalPath="/legal" />
      <h1>Terms and Conditions</h1>
      <p className={styles['lead']}>
        These terms apply to every visit to {store} and every order placed through it. By using the site or
        placing an order you accept them. Please read them carefully.
      </p>

      <section aria-labelledby="terms-eligibility">
        <h2 id="terms-eligibility">1. Eligibility and lawful purchase</h2>
        <p>
          You must be of legal age to buy what you order: 21 or older for handguns and their ammunition, 18 or
          older for other products where the law allows. You confirm that you may lawfully own and receive
          each product under federal, state and local law where you live.
        </p>
        <p>
          Firearms are delivered only to a federally licensed dealer (FFL) you choose, where you complete the
          transfer and pass the required background check. We may refuse or cancel any order we believe would
          break the law.
        </p>
      </section>

      <section aria-labelledby="terms-orders">
        <h2 id="terms-orders">2. Orders, prices and payment</h2>
        <p>
          Prices are shown in the site&apos;s currency and may change until you place an order. An order is
          accepted when payment has been confirmed by our team. Payment is made manually to the wallet shown
          on your order page; paying with Bitcoin gives a 10% discount on the items price. Products are
          reserved for you once the order is placed and released if it is cancelled before payment.
        </p>
      </section>

      <section aria-labelledby="terms-shipping">
        <h2 id="terms-shipping">3. Shipping, returns and refunds</h2>
        <p>
          Accessories ship to the address you give at checkout. Unused accessories may be returned within 30
          days of delivery. Firearms may be returned only where the law allows and through a licensed dealer;
          contact us before sending anything back. Refunds are paid to the method you paid with, less any
          transfer fees charged to us.
        </p>
      </section>

      <section aria-labelledby="terms-safety">
        <h2 id="terms-safety">4. Safe and responsible use</h2>
        <p>
          You are responsible for storing, carrying and using what you buy safely and lawfully. Product
          descriptions are for information only and are not training; take a safety course before using any
          firearm.
        </p>
      </section>

      <section aria-labelledby="terms-liability">
        <h2 id="terms-liability">5. Limitation of liability</h2>
        <p>
          To the fullest extent the law allows, our total liability for any claim arising from the site, an
          order or a product is limited to the amount you paid for that order, and in no case more than $1,000
          (one thousand US dollars). We are not liable for indirect, incidental or consequential damages, nor
          for loss or injury caused by the misuse, unlawful use or modification of any product.
        </p>
      </section>

      <section aria-labelledby="terms-privacy">
        <h2 id="terms-privacy">6. Privacy and children</h2>
        <p>
          We collect only the personal data needed to run your account and fulfil your orders (name, e-mail
          address, shipping details and payment receipts), keep it secure, and never sell it. The site is not
          meant for children: we do not knowingly collect personal data from children under thirteen (13)
          years of age. If you believe a child has given us personal data, contact us and we will delete it.
        </p>
      </section>

      <section aria-labelledby="terms-changes">
        <h2 id="terms-changes">7. Changes and governing law</h2>
        <p>
          We may update these terms; the version on this page at the time of your order applies to it. These
          terms are governed by the laws of the State of California, United States.
        </p>
      </section>

      <section aria-labelledby="terms-contact">
        <h2 id="terms-contact">8. Contact</h2>
        <p>
          Questions about these terms:{' '}
          {email ? <a href={`mailto:${email}`}>{email}</a> : 'write to us at the address in the footer'}. See
          also our <Link to="/about#faq">frequently asked questions</Link>.
        </p>
      </section>
    </article>
  );
}
