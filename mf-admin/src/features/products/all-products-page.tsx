import { PRODUCTS_API, type Product } from '@shop/contracts';
import { formatPrice, siteSettingsAtom } from '@shop/state';
import { buttonClass } from '@shop/ui';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import shared from '../../shared/admin.module.css';
import { ListFilter, useListFilters } from '../../shared/list-controls';
import { ListScreen } from '../../shared/list-screen';
import { DeleteButton, DeleteDialog, useRowDeletion } from '../../shared/row-deletion';
import { useListAction } from '../../shared/use-list-action';
import { PAGE_SIZE, type ListPosition, usePagedList } from '../../shared/use-paged-list';
import styles from './all-products-page.module.css';

/** The catalogue's own parameter names (contracts: ProductSearchQuery), newest first. */
const productsPath = ({ q, page }: ListPosition, lowStock: boolean) =>
  `${PRODUCTS_API}?${new URLSearchParams({ ...(q && { query: q }), ...(lowStock && { lowStock: 'true' }), sort: 'newest', page: String(page), pageSize: String(PAGE_SIZE) })}`;

/**
 * All Products (docs/product/screens.md, "All Products"): search, page, edit and delete the catalogue; the
 * low-stock filter (`?lowStock=true`, kept by the search and the pages) and badge.
 */
export default function AllProductsPage() {
  const { currency } = useAtomValue(siteSettingsAtom);
  const { params, setFilter } = useListFilters<'lowStock'>();
  const lowStockOnly = params.get('lowStock') === 'true';
  const list = usePagedList<Product>((position) => productsPath(position, lowStockOnly));
  const { act } = useListAction(list.reload);
  const deletion = useRowDeletion<Product>(
    act,
    (product) => `${PRODUCTS_API}/delete/${product._id}`,
    'Product Deleted successfully!',
  );

  return (
    <ListScreen
      title="All Products"
      searchHint="Finds the text in the name, brand, category or description."
      actions={
        <>
          <ListFilter>
            <input
              type="checkbox"
              checked={lowStockOnly}
              onChange={(event) => setFilter('lowStock', event.target.checked ? 'true' : '')}
            />
            Low stock only
          </ListFilter>
          <Link to="/create-listing" className={buttonClass('primary')}>
            Create Listing
          </Link>
        </>
      }
      list={list}
      noun="products"
      label="Products"
      columns={['NAME', 'BRAND', 'CATEGORY', { number: 'PRICE' }, { number: 'COUNT IN STOCK' }, 'ACTIONS']}
      rows={(items) =>
        items.map((product) => (
          <tr key={product._id}>
            <th scope="row">{product.name}</th>
            <td>{product.brand}</td>
            <td>{product.category}</td>
            <td className={shared['number']}>{formatPrice(product.price, currency)}</td>
            <td className={shared['number']}>
              {product.countInStock}
              {product.lowStock && <span className={styles['lowStock']}>Low stock</span>}
            </td>
            <td>
              <div className={shared['actions']}>
                <Link
                  to={`/update/${product._id}`}
                  className={buttonClass('secondary')}
                  aria-label={`Edit ${product.name}`}
                >
                  Edit
                </Link>
                <DeleteButton deletion={deletion} row={product} label={`Delete ${product.name}`} />
              </div>
            </td>
          </tr>
        ))
      }
    >
      <DeleteDialog
        deletion={deletion}
        title="Delete product"
        description={`Delete “${deletion.row?.name ?? ''}”? It leaves the shop at once; orders already placed keep it.`}
      />
    </ListScreen>
  );
}
