import type { Product, ProductFacets } from '@shop/contracts';
import { totalCount } from '@shop/state';
import { LoadingBox, MessageBox, useApiGet } from '@shop/ui';
import type { ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { PageMetadata } from '../../shared/metadata/page-metadata';
import { ProductGrid } from '../../shared/product-grid';
import { FacetFilter } from './facet-filter';
import { Pagination } from './pagination';
import { PriceFilter } from './price-filter';
import styles from './results-page.module.css';
import {
  PAGE_SIZE,
  type ResultsView,
  canonicalPath,
  changeView,
  facetsPath,
  listPath,
  readView,
  viewUrl,
} from './results-view';
import { SortSelect } from './sort-select';

export interface ResultsPageProps {
  /** The category of a `/category/{name}` route; absent on `/search`. */
  routeCategory?: string;
  heading: ReactNode;
  title: string;
}

/**
 * Search results and category pages alike: filters (category, brand, price), order and page all live in
 * the URL, so Back, Forward, a reload or a shared link show the same view.
 */
export function ResultsPage({ routeCategory, heading, title }: ResultsPageProps) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const onCategoryPage = routeCategory !== undefined;
  const view = readView(params, routeCategory);
  const list = useApiGet<Product[]>(listPath(view));
  const facets = useApiGet<ProductFacets>(facetsPath(view));

  const urlOf = (change: Partial<ResultsView>) => viewUrl(changeView(view, change), onCategoryPage);
  // While a filter's new counts load, the previous ones stay on screen, so the filters do not jump.
  const facetData =
    facets.status === 'loaded'
      ? facets.response.data
      : facets.status === 'loading'
        ? facets.previous?.data
        : undefined;

  return (
    <section className={styles['page']}>
      <title>{title}</title>
      <ResultsMetadata title={title} canonical={canonicalPath(view, onCategoryPage)} />
      <h1 className={styles['heading']}>{heading}</h1>
      <div className={styles['layout']}>
        <aside className={styles['filters']} aria-label="Filters">
          {facets.status === 'loading' && !facetData && <LoadingBox label="Loading filters..." />}
          {facets.status === 'failed' && <MessageBox variant="danger">{facets.message}</MessageBox>}
          {facetData && (
            <>
              <FacetFilter
                title="Category"
                anyLabel="All categories"
                anyHref={viewUrl(changeView(view, { category: '' }), false)}
                selected={view.category}
                options={facetData.categories}
                hrefFor={(category) => urlOf({ category })}
              />
              <FacetFilter
                title="Brand"
                anyLabel="All brands"
                anyHref={urlOf({ brand: '' })}
                selected={view.brand}
                options={facetData.brands}
                hrefFor={(brand) => urlOf({ brand })}
              />
            </>
          )}
          <PriceFilter
            // A new range in the URL (Back, a link) starts the form again from it.
            key={`${view.minPrice ?? ''}-${view.maxPrice ?? ''}`}
            minPrice={view.minPrice}
            maxPrice={view.maxPrice}
            clearHref={urlOf({ minPrice: undefined, maxPrice: undefined })}
            onApply={(range) => navigate(urlOf(range))}
          />
        </aside>
        <div className={styles['results']}>
          <div className={styles['toolbar']}>
            <p className={styles['total']} role="status">
              {list.status === 'loaded' &&
                resultCount(totalCount(list.response.headers, list.response.data.length))}
            </p>
            <SortSelect sort={view.sort} onChange={(sort) => navigate(urlOf({ sort }))} />
          </div>
          {list.status === 'loading' && <LoadingBox />}
          {list.status === 'failed' && <MessageBox variant="danger">{list.message}</MessageBox>}
          {list.status === 'loaded' && (
            <LoadedResults
              products={list.response.data}
              total={totalCount(list.response.headers, list.response.data.length)}
              page={view.page}
              hrefFor={(page) => urlOf({ page })}
            />
          )}
        </div>
      </div>
    </section>
  );
}

const resultCount = (total: number) => `${total} ${total === 1 ? 'product' : 'products'}`;

function LoadedResults(props: {
  products: Product[];
  total: number;
  page: number;
  hrefFor: (page: number) => string;
}) {
  const { products, total, page, hrefFor } = props;
  if (total === 0) return <MessageBox>No products found</MessageBox>;
  const pageCount = Math.ceil(total / PAGE_SIZE);
  if (products.length === 0) {
    return (
      <MessageBox>
        There is no page {page} of these results. <Link to={hrefFor(1)}>Go to the first page</Link>
      </MessageBox>
    );
  }
  return (
    <>
      <ProductGrid products={products} />
      <Pagination page={page} pageCount={pageCount} hrefFor={hrefFor} />
    </>
  );
}

/** Indexed under its canonical URL, or not at all when filters narrow a search. */
function ResultsMetadata({ title, canonical }: { title: string; canonical: string | undefined }) {
  return canonical ? (
    <PageMetadata title={title} canonicalPath={canonical} />
  ) : (
    <PageMetadata title={title} noindex />
  );
}
