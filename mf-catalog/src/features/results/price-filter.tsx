import { siteSettingsAtom } from '@shop/state';
import { Button, useHydrated } from '@shop/ui';
import { useAtomValue } from 'jotai';
import { type FormEvent, useState } from 'react';
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

interface PriceInputProps {
  label: string;
  name: 'minPrice' | 'maxPrice';
  value: number | undefined;
  /** The range's error message while there is one: the field is marked invalid and described by it. */
  errorId: string | undefined;
}

/** One end of the price range, an amount in the site's currency. */
function PriceInput({ label, name, value, errorId }: PriceInputProps) {
  return (
    <label className={styles['priceField']}>
      <span>{label}</span>
      <input
        type="number"
        name={name}
        min={0}
        step="any"
        inputMode="decimal"
        defaultValue={value}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId}
      />
    </label>
  );
}

/**
 * Price range form; the screen remounts it when the URL's range changes, so Back restores the fields too.
 * The fields are read when the form is sent, not kept in state: on a server-rendered page the shopper may type
 * before the code takes the page over, and that text is in the fields only. Until then Apply says it cannot
 * be pressed yet (a plain form would send the range without the page's other filters).
 */
export function PriceFilter({ minPrice, maxPrice, onApply, clearHref }: PriceFilterProps) {
  const { currency } = useAtomValue(siteSettingsAtom);
  const ready = useHydrated();
  const [error, setError] = useState('');
  // One price filter per page; fixed ids are the same on the server and in the browser (see FacetFilter).
  const headingId = 'filter-price';
  const errorId = 'filter-price-error';

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    const field = (name: PriceInputProps['name']) => {
      const text = fields.get(name);
      return parse(typeof text === 'string' ? text : '');
    };
    const range = { minPrice: field('minPrice'), maxPrice: field('maxPrice') };
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
        <PriceInput
          label={`Min price (${currency})`}
          name="minPrice"
          value={minPrice}
          errorId={error ? errorId : undefined}
        />
        <PriceInput
          label={`Max price (${currency})`}
          name="maxPrice"
          value={maxPrice}
          errorId={error ? errorId : undefined}
        />
        <Button type="submit" disabled={!ready}>
          Apply
        </Button>
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
