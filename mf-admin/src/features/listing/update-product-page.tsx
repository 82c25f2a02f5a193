import { PRODUCTS_API, type Product, type ProductInput } from '@shop/contracts';
import { apiFetch } from '@shop/state';
import { LoadingBox, MessageBox, useApiGet } from '@shop/ui';
import { useNavigate, useParams } from 'react-router-dom';
import { toast } from 'react-toastify';
import { AdminScreen } from '../../shared/admin-screen';
import { type ListingDraft, ListingForm } from './listing-form';
import { LISTING_MESSAGES } from './listing-messages';

const draftOf = (product: Product): ListingDraft => ({
  name: product.name,
  slug: product.slug,
  description: product.description,
  brand: product.brand,
  category: product.category,
  image: product.image,
  price: String(product.price),
  countInStock: String(product.countInStock),
  lowStockThreshold: product.lowStockThreshold === null ? '' : String(product.lowStockThreshold),
});

/**
 * Update Product (docs/product/screens.md, "Create listing and Update Product"): the shared form, filled
 * with the product of the route.
 */
export default function UpdateProductPage() {
  const { productId = '' } = useParams();
  const navigate = useNavigate();
  const product = useApiGet<Product>(`${PRODUCTS_API}/${encodeURIComponent(productId)}`);

  const update = async (input: ProductInput) => {
    await apiFetch<Product>(`${PRODUCTS_API}/update/${encodeURIComponent(productId)}`, {
      method: 'POST',
      body: input,
    });
    toast.success(LISTING_MESSAGES.updated);
    navigate('/');
  };

  return (
    <AdminScreen title="Update Product">
      {product.status === 'loading' && <LoadingBox />}
      {product.status === 'failed' && <MessageBox variant="danger">{product.message}</MessageBox>}
      {product.status === 'loaded' && (
        <ListingForm
          key={productId}
          initial={draftOf(product.response.data)}
          minStock={0}
          submitLabel="Update Product"
          busyLabel="Updating..."
          slugHint="The product's address, /product/slogan. Left empty, the current one is kept."
          onSubmit={update}
        />
      )}
    </AdminScreen>
  );
}
