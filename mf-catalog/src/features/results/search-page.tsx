import { useSearchParams } from 'react-router-dom';
import { ResultsPage } from './results-page';

/** `/search?query=…`: the products matching the text (everything when it is empty). */
export default function SearchPage() {
  const [params] = useSearchParams();
  const query = params.get('query')?.trim() ?? '';
  return (
    <ResultsPage
      heading={query ? `Search results for “${query}”` : 'All products'}
      title={query ? `Search results for “${query}”` : 'Search results'}
    />
  );
}
