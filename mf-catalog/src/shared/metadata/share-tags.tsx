import type { Product } from '@shop/contracts';
import { siteSettingsAtom } from '@shop/state';
import { siteOriginAtom } from '@shop/ui';
import { useAtomValue } from 'jotai';
import { absoluteUrl, shareImage, type SiteIdentity } from './structured-data';

/**
 * The site's name, currency and public origin, for the page's metadata: the origin is the page's own in the
 * browser, and the one the server rendered with on a server-rendered page (so both draw the same URLs).
 */
export function useSiteIdentity(): SiteIdentity {
  const { websiteName, currency } = useAtomValue(siteSettingsAtom);
  const origin = useAtomValue(siteOriginAtom);
  return { origin, siteName: websiteName, currency };
}

export interface PageMetadataProps {
  /** The `<title>` the screen already sets, repeated for previews. */
  title: string;
  description?: string;
  /** The one URL this content is indexed under (filters and sorts canonicalise to it). */
  canonicalPath?: string;
  /** A page that must not be indexed (not found, personal): `noindex`, no canonical. */
  noindex?: boolean;
  image?: string;
  /** Open Graph type: `product` for a product page. */
  kind?: 'website' | 'product';
  /**
   * What the page's schema.org JSON-LD describes: the shop itself (home) or a product. Only the server writes
   * it (page-metadata.server.tsx): a crawler reads the page as it arrives, so the browser's code leaves it out.
   */
  subject?: 'site' | Product;
}

/**
 * The tags of an indexable screen that previews and the browser read: description, canonical, Open Graph
 * and Twitter card (React 19 hoists `<meta>` and `<link>` into the head, on the server and in the browser).
 */
export function ShareTags({
  title,
  description,
  canonicalPath,
  noindex = false,
  image,
  kind = 'website',
}: PageMetadataProps) {
  const site = useSiteIdentity();
  if (noindex) return <meta name="robots" content="noindex" />;
  const url = canonicalPath ? absoluteUrl(site.origin, canonicalPath) : undefined;
  const picture = shareImage(site.origin, image);
  return (
    <>
      {description && <meta name="description" content={description} />}
      {url && <link rel="canonical" href={url} />}
      <meta property="og:site_name" content={site.siteName} />
      <meta property="og:type" content={kind} />
      <meta property="og:title" content={title} />
      {description && <meta property="og:description" content={description} />}
      {url && <meta property="og:url" content={url} />}
      {picture && <meta property="og:image" content={picture} />}
      <meta name="twitter:card" content={picture ? 'summary_large_image' : 'summary'} />
    </>
  );
}

/** A meta description from a longer text: whole words, at most `max` characters. */
export function describeIn(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 0)) || cut}…`;
}
