import type { ComponentType } from 'react';
import AboutPage from '../features/about/about-page';
import HomePage from '../features/home/home-page';
import LegalPage from '../features/legal/legal-page';
import ProductPage from '../features/product/product-page';
import CategoryPage from '../features/results/category-page';
import SearchPage from '../features/results/search-page';

/**
 * The screens this remote renders on the server, by the name each is exposed under (webpack.config.cjs):
 * the same components the browser loads through Module Federation, so hydration meets the tree it drew.
 */
export const SERVER_SCREENS: Readonly<Record<string, ComponentType>> = {
  HomePage,
  ProductPage,
  SearchPage,
  CategoryPage,
  AboutPage,
  LegalPage,
};
