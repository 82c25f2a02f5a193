// The browser's PageMetadata: the share tags alone. The server's (page-metadata.server.tsx, which the server
// build takes in this module's place) adds the JSON-LD, which only crawlers read and they read it as the page
// arrives; its builders stay out of the browser's first-screen bytes (docs/performance.md).
export { ShareTags as PageMetadata, describeIn, useSiteIdentity, type PageMetadataProps } from './share-tags';
