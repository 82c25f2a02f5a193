// Every section of `npm run bench`, in the order they run. Each lives in its own file of this folder.
import type { BenchSection } from '../lib/figure.js';
import { firstLoadSection } from './first-load.js';
import { groupCommitSection } from './group-commit.js';
import { lcpSection } from './lcp.js';
import { orderCommandsSection } from './order-commands.js';
import { orderExportSection } from './order-export.js';
import { ordersSection } from './orders.js';
import { readsSection } from './reads.js';
import { scalingSection } from './scaling.js';
import { serverRenderingSection } from './server-rendering.js';
import { tracingSection } from './tracing.js';

export const SECTIONS: BenchSection[] = [
  firstLoadSection,
  lcpSection,
  serverRenderingSection,
  readsSection,
  ordersSection,
  orderCommandsSection,
  groupCommitSection,
  orderExportSection,
  tracingSection,
  scalingSection,
];
