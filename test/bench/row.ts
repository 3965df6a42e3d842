/** One line of the bench table: a figure measured beside its baseline in the same run. */
export interface Row {
  figure: string;
  measured: string;
  baseline: string;
  ratio: string;
  goal: string;
  /** null: reported only, no goal to meet. */
  met: boolean | null;
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

export const ms = (value: number) => `${value.toFixed(value < 10 ? 3 : 1)} ms`;
