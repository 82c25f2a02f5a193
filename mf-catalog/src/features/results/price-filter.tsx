import { siteSettingsAtom } from '@shop/state';
import { Button } from '@shop/ui';
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
  value: string;
  onChange: (value: string) => void;
  /** The range's error message while there is one: the field is marked invalid and described by it. */
  errorId: string | undefined;
}

/** One end of the price range, an amount in the site's currency. */
function PriceInput({ label, name, value, onChange, errorId }: PriceInputProps) {
  return (
    <label className={styles['priceField']}>
      <span>{label}</span>
      <input
        type="number"
        name={name}
        min={0}
        step="any"
        inputMode="decimal"
        value={value}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}

/** Price range form; the screen remounts it when the URL's range changes, so Back restores the fields too. */
export function PriceFilter({ minPrice, maxPrice, onApply, clearHref }: PriceFilterProps) {
  const { currency } = useAtomValue(siteSettingsAtom);
  const [min, setMin] = useState(minPrice === undefined ? '' : String(minPrice));
  const [max, setMax] = useState(maxPrice === undefined ? '' : String(maxPrice));
  const [error, setError] = useState('');
  // One price filter per page; fixed ids are the same on the server and in the browser (see FacetFilter).
  const headingId = 'filter-price';
  const errorId = 'filter-price-error';

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
        <PriceInput
          label={`Min price (${currency})`}
          name="minPrice"
          value={min}
          onChange={setMin}
          errorId={error ? errorId : undefined}
        />
        <PriceInput
          label={`Max price (${currency})`}
          name="maxPrice"
          value={max}
          onChange={setMax}
          errorId={error ? errorId : undefined}
        />
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
