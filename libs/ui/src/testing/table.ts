import { within } from '@testing-library/react';

/** The column headers of a table as a reader sees them, in order. */
export const columnHeaders = (table: HTMLElement): (string | null)[] =>
  within(table)
    .getAllByRole('columnheader')
    .map((header) => header.textContent);
