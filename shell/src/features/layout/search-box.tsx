import { siteSettingsAtom } from '@shop/state';
import { useAtomValue } from 'jotai';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import styles from './search-box.module.css';

/** The URL a search goes to: /search?query=… when text was typed, else /search. */
export function searchUrl(text: string): string {
  const query = text.trim();
  return query ? `/search?query=${encodeURIComponent(query)}` : '/search';
}

/** Search form of the top bar (docs/product/screens.md, "Search box"). */
export function SearchBox() {
  const { websiteName } = useAtomValue(siteSettingsAtom);
  const navigate = useNavigate();
  const label = `Search ${websiteName}`;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Read from the field, not from state: on a server-rendered page the shopper may have typed before the
    // code took the page over, and that text is in the field only.
    const text = new FormData(event.currentTarget).get('query');
    navigate(searchUrl(typeof text === 'string' ? text : ''));
  };

  return (
    // action and method: without scripts (a server-rendered page not yet taken over) the browser goes to
    // /search?query=… itself.
    <form
      role="search"
      aria-label={label}
      className={styles['form']}
      action="/search"
      method="get"
      onSubmit={onSubmit}
    >
      <input type="search" name="query" className={styles['input']} placeholder={label} aria-label={label} />
      <button type="submit" className={styles['button']} aria-label="Search">
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
          <path
            fill="currentColor"
            d="M10 2a8 8 0 0 1 6.32 12.9l5.39 5.39-1.42 1.42-5.39-5.39A8 8 0 1 1 10 2Zm0 2a6 6 0 1 0 0 12 6 6 0 0 0 0-12Z"
          />
        </svg>
      </button>
    </form>
  );
}
