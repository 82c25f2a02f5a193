import { PageMetadata } from '../../shared/metadata/page-metadata';
import { siteSettingsAtom } from '@shop/state';
import { Rating } from '@shop/ui';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { SERVICES, TESTIMONIALS } from './about-content';
import styles from './about-page.module.css';
import storePicture from './assets/about-store.svg';
import bitcoin from './assets/bitcoin.svg';
import { FaqAccordion } from './faq-accordion';
import { HeroVideo } from './hero-video';
import { useHashScroll } from './use-hash-scroll';

/**
 * `/about` (docs/product/screens.md, "Marketing page"): hero, about us, services, testimonials, FAQ and the
 * Bitcoin banner. The footer links to its sections by id (#about, #services, #testimonials, #faq).
 */
export default function AboutPage() {
  const { websiteName } = useAtomValue(siteSettingsAtom);
  const storeName = websiteName || 'Our store';
  useHashScroll();

  return (
    <div className={styles['page']}>
      <title>{websiteName ? `About Us | ${websiteName}` : 'About Us'}</title>
      <PageMetadata
        title={websiteName ? `About Us | ${websiteName}` : 'About Us'}
        description="Who we are, what we offer, what our customers say, and answers to common questions."
        canonicalPath="/about"
      />
      <section className={styles['hero']} aria-labelledby="about-hero-title">
        <HeroVideo />
        <div className={styles['heroText']}>
          <h1 id="about-hero-title">Firearms and accessories, handled with care</h1>
          <p>Quality pistols and gear, expert service, and safety first, every time.</p>
        </div>
      </section>

      <section
        id="about"
        tabIndex={-1}
        className={`${styles['section']} ${styles['split']}`}
        aria-labelledby="about-title"
      >
        <div>
          <h2 id="about-title">About Us</h2>
          <p>
            {storeName} is a family-run store in California, United States, supplying high-quality firearms
            and accessories to sport shooters, collectors and people who protect their homes.
          </p>
          <p>
            Every sale follows federal and state law, every firearm passes through a licensed dealer, and our
            staff take the time to help you choose well and handle it safely.
          </p>
        </div>
        <img
          src={storePicture}
          alt="Our store's counter: a display case of pistols below a wall of holsters, lights and magazines"
          width={800}
          height={600}
          loading="lazy"
          className={styles['picture']}
        />
      </section>

      <section id="services" tabIndex={-1} className={styles['section']} aria-labelledby="services-title">
        <h2 id="services-title">Our Services</h2>
        <ul className={styles['cards']}>
          {SERVICES.map((service) => (
            <li key={service.name} className={styles['card']}>
              <img src={service.picture} alt="" width={96} height={96} loading="lazy" />
              <h3>{service.name}</h3>
              <p>{service.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section
        id="testimonials"
        tabIndex={-1}
        className={styles['section']}
        aria-labelledby="testimonials-title"
      >
        <h2 id="testimonials-title">What Our Customers Say</h2>
        <ul className={styles['cards']}>
          {TESTIMONIALS.map((testimonial) => (
            <li key={testimonial.name} className={styles['card']}>
              <figure className={styles['testimonial']}>
                <Rating rating={testimonial.rating} />
                <blockquote>
                  <p>“{testimonial.quote}”</p>
                </blockquote>
                <figcaption>
                  <span className={styles['avatar']} aria-hidden="true">
                    {testimonial.name.charAt(0)}
                  </span>
                  <span>
                    <strong>{testimonial.name}</strong>
                    <br />
                    {testimonial.place}
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </section>

      <section id="faq" tabIndex={-1} className={styles['section']} aria-labelledby="faq-title">
        <h2 id="faq-title">Frequently Asked Questions</h2>
        <FaqAccordion />
      </section>

      <section className={styles['banner']} aria-labelledby="bitcoin-title">
        <img src={bitcoin} alt="" width={120} height={120} loading="lazy" className={styles['bitcoin']} />
        <div>
          <h2 id="bitcoin-title">Pay with Bitcoin, save 10%</h2>
          <p>Bitcoin payment gives a 10% discount on all firearms.</p>
        </div>
        <Link to="/" className={styles['shopNow']}>
          Shop Now
        </Link>
      </section>
    </div>
  );
}
