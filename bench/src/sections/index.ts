// Every section of `npm run bench`, in the order they run. Each lives in its own file of this folder.
import type { BenchSection } from '../lib/figure.js';

export const SECTIONS: BenchSection[] = [];
