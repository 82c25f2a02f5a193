import { PRODUCTS_API, type Product } from '@shop/contracts';
import { apiFetch, formatPrice, siteSettingsAtom } from '@shop/state';
import { Button, buttonClass, ConfirmDialog } from '@shop/ui';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import shared from '../../shared/admin.module.css';
import { SearchForm } from '../../shared/list-controls';
import { PagedTable } from '../../shared/paged-table';
import { useListAction } from '../../shared/use-list-action';
import { PAGE_SIZE, type ListPosition, usePagedList } from '../../shared/use-paged-list';

/** The catalogue's own parameter names (contracts: ProductSearchQuery), newest first. */
const productsPath = ({ q, page }: ListPosition) =>
  `${PRODUCTS_API}?${new URLSearchParams({ ...(q && { query: q }), sort: 'newest', page: String(page), pageSize: String(PAGE_SIZE) })}`;

/** All Products (spec §2, admin): search, page, edit and delete the catalogue. */
export default function AllProductsPage() {
  const { currency } = useAtomValue(siteSettingsAtom);
  const { state, position, go, reload } = usePagedList<Product>(productsPath);
  const [doomed, setDoomed] = useState<Product>();

  const { act } = useListAction(reload);

  const remove = (product: Product) =>
    act(
      product._id,
      () => apiFetch(`${PRODUCTS_API}/delete/${product._id}`, { method: 'DELETE' }),
      'Product Deleted successfully!',
    );

  return (
    <section className={shared['page']}>
      <title>All Products</title>
      <h1 className={shared['heading']}>All Products</h1>
      <div className={shared['toolbar']}>
        <SearchForm
          key={position.q}
          subject="products"
          value={position.q}
          hint="Finds the text in the name, brand, category or description."
          onSearch={(q) => go({ q })}
        />
        <Link to="/create-listing" className={buttonClass('primary')}>
          Create Listing
        </Link>
      </div>
      <PagedTable
        list={{ state, position, go }}
        noun="products"
        label="Products"
        head={
          <>
            <th scope="col">NAME</th>
            <th scope="col">BRAND</th>
            <th scope="col">CATEGORY</th>
            <th scope="col" className={shared['number']}>
              PRICE
            </th>
            <th scope="col" className={shared['number']}>
              COUNT IN STOCK
            </th>
            <th scope="col">ACTIONS</th>
          </>
        }
        rows={(items) =>
          items.map((product) => (
            <tr key={product._id}>
              <th scope="row">{product.name}</th>
              <td>{product.brand}</td>
              <td>{product.category}</td>
              <td className={shared['number']}>{formatPrice(product.price, currency)}</td>
              <td className={shared['number']}>{product.countInStock}</td>
              <td>
                <div className={shared['actions']}>
                  <Link
                    to={`/update/${product._id}`}
                    className={buttonClass('secondary')}
                    aria-label={`Edit ${product.name}`}
                  >
                    Edit
                  </Link>
                  <Button
                    variant="danger"
                    aria-label={`Delete ${product.name}`}
                    onClick={() => setDoomed(product)}
                  >
                    Delete
                  </Button>
                </div>
              </td>
            </tr>
          ))
        }
      />
      <ConfirmDialog
        open={doomed !== undefined}
        onOpenChange={(open) => !open && setDoomed(undefined)}
        title="Delete product"
        description={`Delete “${doomed?.name ?? ''}”? It leaves the shop at once; orders already placed keep it.`}
        confirmLabel="Delete"
        onConfirm={() => (doomed ? remove(doomed) : undefined)}
      />
    </section>
  );
}
