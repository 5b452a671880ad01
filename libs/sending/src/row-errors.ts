/** SQLSTATE classes of a statement refused for what one of its rows holds (data exception, integrity constraint). */
const ROW_ERROR_CLASSES = new Set(['22', '23']);

/**
 * Writes a group's rows with one statement; if the statement is refused for one row's
 * data, writes each row alone, so that only that row's item fails. Any other failure
 * (a connection lost) fails the whole group. Results keep the items' order.
 */
export async function writeGroup<Item, Result>(items: Item[], write: (items: Item[]) => Promise<Result[]>): Promise<Array<Result | Error>> {
  try {
    return await write(items);
  } catch (error) {
    if (items.length === 1 || !ROW_ERROR_CLASSES.has(String((error as { code?: string }).code).slice(0, 2))) throw error;
    return Promise.all(
      items.map((item) =>
        write([item]).then(
          ([result]) => result,
          (alone: unknown) => asError(alone),
        ),
      ),
    );
  }
}

export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
