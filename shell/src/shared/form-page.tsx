import { Button } from '@shop/ui';
import type { FormEvent, ReactNode } from 'react';
import styles from './form.module.css';

export interface FormPageProps {
  /** The document title, and the level-one heading unless `heading` is given. */
  title: string;
  heading?: ReactNode;
  /** Shown between the heading and the form. */
  intro?: ReactNode;
  submitLabel: string;
  /** While true the submit button waits (useAction's `busy`). */
  submitting: boolean;
  /** Runs on submit; the browser's own submission is prevented. */
  onSubmit: () => Promise<void>;
  /** The links under the form. */
  links?: ReactNode;
  children: ReactNode;
}

/** One screen of the shell's account forms (sign in, sign up, password recovery, profile). */
export function FormPage({
  title,
  heading = <h1>{title}</h1>,
  intro,
  submitLabel,
  submitting,
  onSubmit,
  links,
  children,
}: FormPageProps) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void onSubmit();
  };
  return (
    <section className={styles['page']}>
      <title>{title}</title>
      {heading}
      {intro}
      <form className={styles['form']} onSubmit={submit}>
        {children}
        <Button type="submit" className={styles['submit']} disabled={submitting}>
          {submitLabel}
        </Button>
      </form>
      {links && <p className={styles['links']}>{links}</p>}
    </section>
  );
}
