import {
  jsonLdText,
  productBreadcrumbs,
  productStructuredData,
  siteStructuredData,
  type SiteIdentity,
} from './structured-data';
import { ShareTags, useSiteIdentity, type PageMetadataProps } from './share-tags';

export { describeIn, useSiteIdentity, type PageMetadataProps } from './share-tags';

/** The JSON-LD of what a page describes: the site with its search and organisation, or a product and its trail. */
function structuredDataOf(subject: PageMetadataProps['subject'], site: SiteIdentity): unknown[] {
  if (subject === undefined) return [];
  if (subject === 'site') return siteStructuredData(site);
  return [productStructuredData(subject, site), productBreadcrumbs(subject, site)];
}

/**
 * The metadata of an indexable screen as the server writes it: the share tags, and schema.org JSON-LD in data
 * blocks, which the render service moves into the page's head (server/render-fragment.tsx).
 */
export function PageMetadata(props: PageMetadataProps) {
  const site = useSiteIdentity();
  const blocks = props.noindex ? [] : structuredDataOf(props.subject, site);
  return (
    <>
      <ShareTags {...props} />
      {blocks.map((value, index) => (
        <script
          key={index}
          type="application/ld+json"
          dangerouslySetInnerHTML={{ __html: jsonLdText(value) }}
        />
      ))}
    </>
  );
}
