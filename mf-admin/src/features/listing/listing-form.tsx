import {
  MEDIA_ACCEPTED_TYPES,
  PRODUCT_LIMITS,
  PRODUCTS_API,
  type Product,
  type ProductInput,
} from '@shop/contracts';
import { Button, loadedList, MessageBox, UploadProgress, useAction, useApiGet } from '@shop/ui';
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import shared from '../../shared/admin.module.css';
import { Field } from '../../shared/field';
import styles from './listing-form.module.css';
import { LISTING_MESSAGES } from './listing-messages';
import { useListingImages } from './use-listing-images';

type TextFields = Pick<Product, 'name' | 'slug' | 'description' | 'brand' | 'category'>;

/** What the form starts from: empty for a new listing, the product for an update. */
export type ListingDraft = TextFields & {
  image: string[];
  price: string;
  countInStock: string;
  /** Empty: the site's default threshold. */
  lowStockThreshold: string;
};

/** The fields of the draft typed in a control (the images have their own chooser). */
type DraftField = keyof Omit<ListingDraft, 'image'>;

export const EMPTY_LISTING: ListingDraft = {
  name: '',
  slug: '',
  description: '',
  brand: '',
  category: '',
  image: [],
  price: '',
  countInStock: '',
  lowStockThreshold: '',
};

export interface ListingFormProps {
  initial: ListingDraft;
  /** Create needs a unit in stock; an update may set 0, marking the product sold out (decision 0009). */
  minStock: 0 | 1;
  submitLabel: string;
  busyLabel: string;
  /** Hint under the Slogan field: what an empty slogan means for this screen. */
  slugHint: string;
  /** Sends the listing; a rejection's message is shown above the button and the input is kept. */
  onSubmit: (input: ProductInput) => Promise<void>;
}

/** The categories the catalog already has, offered as suggestions; none if they cannot be read. */
function useCategories(): string[] {
  return loadedList(useApiGet<string[]>(`${PRODUCTS_API}/categories`));
}

/**
 * Create listing and Update Product share this form: images, then the product's fields
 * (docs/product/screens.md, "Create listing and Update Product").
 */
export function ListingForm({
  initial,
  minStock,
  submitLabel,
  busyLabel,
  slugHint,
  onSubmit,
}: ListingFormProps) {
  const [draft, setDraft] = useState(initial);
  const { busy: sending, run } = useAction();
  const [refusal, setRefusal] = useState<string>();
  const { images, urls, uploading, add, remove } = useListingImages(initial.image);
  const categories = useCategories();
  const id = useId();

  /** The id of a draft field's control (its label and hint refer to it). */
  const idOf = (name: DraftField) => `${id}-${name}`;
  /** What the control of a draft field takes: its id, the admin look, its value and its change. */
  const control = (name: DraftField) => ({
    id: idOf(name),
    className: shared['input'],
    value: draft[name],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setDraft((current) => ({ ...current, [name]: event.target.value })),
  });

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    add(Array.from(event.target.files ?? []));
    // Cleared so choosing the same file again (after removing it) is a change too.
    event.target.value = '';
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (urls.length === 0) {
      toast.error(LISTING_MESSAGES.noImage);
      return;
    }
    setRefusal(undefined);
    await run(
      () =>
        onSubmit({
          name: draft.name.trim(),
          slug: draft.slug.trim(),
          image: urls,
          category: draft.category.trim(),
          brand: draft.brand.trim(),
          price: Number(draft.price),
          countInStock: Number(draft.countInStock),
          lowStockThreshold: draft.lowStockThreshold.trim() === '' ? null : Number(draft.lowStockThreshold),
          description: draft.description.trim(),
        }),
      // Above the button, the input kept; success leaves the screen (the caller's navigation).
      { onFailure: setRefusal },
    );
  };

  return (
    <form className={shared['form']} onSubmit={submit} aria-busy={sending}>
      <fieldset className={styles['images']}>
        <legend className={shared['label']}>Images</legend>
        <p id={`${id}-images-hint`} className={shared['hint']}>
          1 to {PRODUCT_LIMITS.maxImages} images (PNG, JPEG, WebP or GIF, 3 MB max each); the first is the
          card image.
        </p>
        <input
          type="file"
          multiple
          accept={MEDIA_ACCEPTED_TYPES.join(',')}
          aria-label="Images"
          aria-describedby={`${id}-images-hint`}
          className={styles['file']}
          onChange={choose}
        />
        {images.length > 0 && (
          <ol className={styles['tiles']} aria-label="Listing images">
            {images.map((image, index) => (
              <li key={image.key} className={styles['tile']}>
                <img
                  src={image.status === 'done' ? image.url : image.preview}
                  alt={`Image ${index + 1}: ${image.name}`}
                  width={112}
                  height={112}
                  className={styles['preview']}
                />
                {image.status === 'uploading' && (
                  <UploadProgress value={image.progress} label={`Upload of ${image.name}`} />
                )}
                {image.status === 'failed' && (
                  <p className={styles['failed']} role="alert">
                    {image.message}
                    {image.reason && (
                      <>
                        {' '}
                        <span className={styles['reason']}>{image.reason}</span>
                      </>
                    )}
                  </p>
                )}
                <Button
                  variant="secondary"
                  aria-label={`Remove image ${index + 1}: ${image.name}`}
                  onClick={() => remove(image.key)}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ol>
        )}
      </fieldset>

      <Field id={idOf('name')} label="Name">
        <input {...control('name')} required maxLength={120} />
      </Field>
      <Field id={idOf('description')} label="Description">
        <textarea {...control('description')} required maxLength={5000} />
      </Field>
      <Field id={idOf('slug')} label="Slogan" hint={slugHint}>
        <input {...control('slug')} maxLength={100} aria-describedby={`${idOf('slug')}-hint`} />
      </Field>
      <div className={styles['pair']}>
        <Field id={idOf('brand')} label="Brand">
          <input {...control('brand')} required maxLength={60} />
        </Field>
        <Field id={idOf('category')} label="Category">
          <input {...control('category')} required maxLength={60} list={`${id}-categories`} />
          <datalist id={`${id}-categories`}>
            {categories.map((category) => (
              <option key={category} value={category} />
            ))}
          </datalist>
        </Field>
      </div>
      <div className={styles['pair']}>
        <Field id={idOf('price')} label="Price">
          <input
            {...control('price')}
            type="number"
            inputMode="decimal"
            required
            min={PRODUCT_LIMITS.minPrice}
            max={PRODUCT_LIMITS.maxPrice}
            step="0.01"
          />
        </Field>
        <Field
          id={idOf('countInStock')}
          label="Count In Stock"
          hint={minStock === 0 ? '0 keeps the product listed as Sold Out.' : undefined}
        >
          <input
            {...control('countInStock')}
            type="number"
            inputMode="numeric"
            required
            min={minStock}
            max={PRODUCT_LIMITS.maxCountInStock}
            step="1"
            aria-describedby={minStock === 0 ? `${idOf('countInStock')}-hint` : undefined}
          />
        </Field>
        <Field
          id={idOf('lowStockThreshold')}
          label="Low stock threshold"
          hint="Low on stock at this many units or fewer; empty for the site's default."
        >
          <input
            {...control('lowStockThreshold')}
            type="number"
            inputMode="numeric"
            min={0}
            max={PRODUCT_LIMITS.maxCountInStock}
            step="1"
            aria-describedby={`${idOf('lowStockThreshold')}-hint`}
          />
        </Field>
      </div>

      {refusal && <MessageBox variant="danger">{refusal}</MessageBox>}
      {uploading && <p className={shared['hint']}>Wait for the images to finish uploading.</p>}
      <Button type="submit" disabled={sending || uploading}>
        {sending ? busyLabel : submitLabel}
      </Button>
    </form>
  );
}
