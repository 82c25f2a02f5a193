// The catalog cache's only way in: the module (composed once by the AppModule), the decorator of a
// public read, and the schema plugin that reports every write to products.
export { CatalogCacheModule } from './catalog-cache.module';
export { CatalogRead } from './catalog-read.decorator';
export { reportCatalogWrites } from './catalog-writes';
