import type { Page } from 'playwright-core';

/** The list toolbar's menu of filters and order is named by its button, whose name counts the filters on. */
const FILTERS = /^Filters and order/;

/** Chooses an entry of the list's filter menu: a filter ("Unread", "Flagged", …) turns on or off, an order is taken. */
export async function chooseListFilter(
  page: Page,
  entry: 'Conversations' | 'Unread' | 'Flagged' | 'Attachments' | 'Newest first' | 'Oldest first',
): Promise<void> {
  await page.getByRole('button', { name: FILTERS }).click();
  await page.getByRole('menu', { name: FILTERS }).getByText(entry, { exact: true }).click();
}
