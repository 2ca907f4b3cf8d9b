/**
 * The number of matching rows for X-Total-Count, given the page just read. A page that is not full is the last one,
 * so it tells the total without counting: a day's reservation list (a few dozen rows, a page of 500) costs one
 * statement instead of two. Only a full page, or an empty one past the start, needs `count`.
 */
export async function totalOf(
  pageRows: number,
  page: { limit: number; offset: number },
  count: () => Promise<number>,
): Promise<number> {
  if (pageRows > 0 && pageRows < page.limit) return page.offset + pageRows;
  if (pageRows === 0 && page.offset === 0) return 0;
  return count();
}
