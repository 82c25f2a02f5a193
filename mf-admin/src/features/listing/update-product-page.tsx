import { PRODUCTS_API, type Product, type ProductInput } from '@shop/contracts';
import { apiFetch } from '@shop/state';
import { LoadingBox, MessageBox } from '@shop/ui';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { toast } from 'react-toastify';
import shared from '../../shared/admin.module.css';
import { errorMessage, isAbort } from '../../shared/error-message';
import { type ListingDraft, ListingForm } from './listing-form';
import { LISTING_MESSAGES } from './listing-messages';

type Loaded = { status: 'loaded'; draft: ListingDraft } | { status: 'failed'; message: string };

const draftOf = (product: Product): ListingDraft => ({
  name: product.name,
  slug: product.slug,
  description: product.description,
  brand: product.brand,
  category: product.category,
  image: product.image,
  price: String(product.price),
  countInStock: String(product.countInStock),
});

/** Update Product (spec §2, admin): the shared form, filled with the product of the route. */
export default function UpdateProductPage() {
  const { productId = '' } = useParams();
  const navigate = useNavigate();
  const [loaded, setLoaded] = useState<{ id: string } & Loaded>();

  useEffect(() => {
    const controller = new AbortController();
    apiFetch<Product>(`${PRODUCTS_API}/${encodeURIComponent(productId)}`, { signal: controller.signal }).then(
      (product) => setLoaded({ id: productId, status: 'loaded', draft: draftOf(product) }),
      (error: unknown) => {
        if (!isAbort(error, controller.signal))
          setLoaded({ id: productId, status: 'failed', message: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [productId]);

  const update = async (input: ProductInput) => {
    await apiFetch<Product>(`${PRODUCTS_API}/update/${encodeURIComponent(productId)}`, {
      method: 'POST',
      body: input,
    });
    toast.success(LISTING_MESSAGES.updated);
    navigate('/');
  };

  const current = loaded?.id === productId ? loaded : undefined;
  return (
    <section className={shared['page']}>
      <title>Update Product</title>
      <h1 className={shared['heading']}>Update Product</h1>
      {!current && <LoadingBox />}
      {current?.status === 'failed' && <MessageBox variant="danger">{current.message}</MessageBox>}
      {current?.status === 'loaded' && (
        <ListingForm
          key={productId}
          initial={current.draft}
          minStock={0}
          submitLabel="Update Product"
          busyLabel="Updating..."
          slugHint="The product's address, /product/slogan. Left empty, the current one is kept."
          onSubmit={update}
        />
      )}
    </section>
  );
}
