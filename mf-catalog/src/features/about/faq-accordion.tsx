import * as Accordion from '@radix-ui/react-accordion';
import { FAQS } from './about-content';
import styles from './about-page.module.css';

/**
 * The seven questions; opening one closes the other, and the open one can be closed again
 * (docs/product/screens.md, "Marketing page").
 */
export function FaqAccordion() {
  return (
    <Accordion.Root type="single" collapsible className={styles['faq']}>
      {FAQS.map((faq, index) => (
        <Accordion.Item key={faq.question} value={`faq-${index}`} className={styles['faqItem']}>
          <Accordion.Header className={styles['faqHeader']}>
            <Accordion.Trigger className={styles['faqTrigger']}>
              <span>{faq.question}</span>
              <span className={styles['faqChevron']} aria-hidden="true">
                ▾
              </span>
            </Accordion.Trigger>
          </Accordion.Header>
          <Accordion.Content className={styles['faqContent']}>
            <p>{faq.answer}</p>
          </Accordion.Content>
        </Accordion.Item>
      ))}
    </Accordion.Root>
  );
}
