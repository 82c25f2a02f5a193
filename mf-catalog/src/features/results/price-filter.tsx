import { siteSettingsAtom } from '@shop/state';
import { Button } from '@shop/ui';
import { useAtomValue } from 'jotai';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import styles from './results-page.module.css';

export interface PriceFilterProps {
  minPrice?: number;
  maxPrice?: number;
  onApply: (range: { minPrice?: number; maxPrice?: number }) => void;
  /** Where the view goes without a price range. */
  clearHref: string;
}

const parse = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

/** Price range form; the screen remounts it when the URL's range changes, so Back restores the fields too. */
export function PriceFilter({ minPrice, maxPrice, onApply, clearHref }: PriceFilterProps) {
  const { currency } = useAtomValue(siteSettingsAtom);
  const [min, setMin] = useState(minPrice === undefined ? '' : String(minPrice));
  const [max, setMax] = useState(maxPrice === undefined ? '' : String(maxPrice));
  const [error, setError] = useState('');
  const headingId = useId();
  const errorId = useId();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const range = { minPrice: parse(min), maxPrice: parse(max) };
    if (range.minPrice !== undefined && range.maxPrice !== undefined && range.minPrice > range.maxPrice) {
      setError('The minimum price must not be greater than the maximum.');
      return;
    }
    setError('');
    onApply(range);
  };

  return (
    <section className={styles['filter']} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles['filterTitle']}>
        Price
      </h2>
      <form className={styles['priceForm']} onSubmit={onSubmit}>
        <label className={styles['priceField']}>
          <span>Min price ({currency})</span>
          <input
            type="number"
            name="minPrice"
            min={0}
            step="any"
            inputMode="decimal"
            value={min}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => setMin(event.target.value)}
          />
        </label>
        <label className={styles['priceField']}>
          <span>Max price ({currency})</span>
          <input
            type="number"
            name="maxPrice"
            min={0}
            step="any"
            inputMode="decimal"
            value={max}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => setMax(event.target.value)}
          />
        </label>
        <Button type="submit">Apply</Button>
      </form>
      {error && (
        <p id={errorId} role="alert" className={styles['fieldError']}>
          {error}
        </p>
      )}
      {(minPrice !== undefined || maxPrice !== undefined) && (
        <Link to={clearHref} className={styles['clearLink']}>
          Any price
        </Link>
      )}
    </section>
  );
}
