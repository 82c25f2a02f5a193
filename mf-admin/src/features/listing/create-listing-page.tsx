import { LISTINGS_API, type Product, type ProductInput } from '@shop/contracts';
import { apiFetch } from '@shop/state';
import { useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify';
import { AdminScreen } from '../../shared/admin-screen';
import { EMPTY_LISTING, ListingForm } from './listing-form';
import { LISTING_MESSAGES } from './listing-messages';

/**
 * Create listing (docs/product/screens.md, "Create listing and Update Product"): the shared form; a new
 * product starts unrated (docs/product/rules.md, "Listings").
 */
export default function CreateListingPage() {
  const navigate = useNavigate();

  const create = async (input: ProductInput) => {
    await apiFetch<Product>(`${LISTINGS_API}/create`, {
      method: 'POST',
      body: { ...input, rating: 0, numReviews: 0 },
    });
    toast.success(LISTING_MESSAGES.created);
    navigate('/');
  };

  return (
    <AdminScreen title="Create Listing">
      <ListingForm
        initial={EMPTY_LISTING}
        minStock={1}
        submitLabel="Create Listing"
        busyLabel="Creating..."
        slugHint="The product's address, /product/slogan. Left empty, it is made from the name."
        onSubmit={create}
      />
    </AdminScreen>
  );
}
