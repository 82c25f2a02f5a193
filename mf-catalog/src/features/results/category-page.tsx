import { useParams } from 'react-router-dom';
import { ResultsPage } from './results-page';

/** `/category/{category}`: the grid of one category, with the same filters, order and pages as search. */
export default function CategoryPage() {
  const category = useParams()['category'] ?? '';
  return <ResultsPage routeCategory={category} heading={category} title={`Category: ${category}`} />;
}
