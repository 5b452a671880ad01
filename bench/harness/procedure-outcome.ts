/** What a procedure scenario reports: notes, a table of its figures, and the figures themselves for the JSON file. */
export interface ProcedureOutcome {
  scenario: string;
  title: string;
  startedAt: string;
  notes: string[];
  table: { header: string[]; rows: string[][] };
  /** Every figure, as written to bench/results. */
  data: unknown;
}
