// The catalog cache's only way in: the module (composed once by the AppModule), the decorator of a
// public read, the schema plugin that reports every write to products, and the way to hear of them
// (the low-stock monitor).
export { CatalogCacheModule } from './catalog-cache.module';
export { CatalogRead } from './catalog-read.decorator';
export { type CatalogChange, onCatalogWrites, reportCatalogWrites } from './catalog-writes';
