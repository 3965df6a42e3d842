/**
 * Where everything of a series chart goes: the title and the period's total, a legend, one bar
 * per bucket on a time axis, and its labels. A bucket with no data is a grey band without a
 * baseline (a zero keeps the baseline and has no bar); a count spread over a sampling gap is a
 * lighter bar than an exact one.
 */
import { CELL, clampWidth, fitText, formatCount, SCALE, TEXT_HEIGHT, textCells, type Layout, type Shape } from "./layout";
import type { SeriesModel } from "./series-model";

const PAD = 16;
const GAP = 8;
export const PLOT_HEIGHT = 120;
const SWATCH = 12;
/** Axis labels are cut to this many cells. */
const LABEL_CELLS = 10;

const STEPS = { hour: [1, 2, 3, 4, 6, 12, 24], day: [1, 2, 5, 10], week: [1, 2, 4, 13], month: [1, 3, 6, 12] } as const;

const width = (text: string) => textCells(text) * CELL - SCALE;

function legend(shapes: Shape[], x: number, y: number): void {
  for (const [colour, text] of [
    ["bar", "exact"],
    ["unique", "spread"],
    ["track", "no data"],
  ] as const) {
    shapes.push({ kind: "rect", x, y: y + 3, width: SWATCH, height: SWATCH, colour });
    shapes.push({ kind: "text", x: x + SWATCH + 4, y, text, colour: "muted", align: "start" });
    x += SWATCH + 4 + width(text) + CELL;
  }
}

export function layoutSeries(model: SeriesModel, requestedWidth: number, unit: "clicks" | "scans"): Layout {
  const chartWidth = clampWidth(requestedWidth);
  const inner = { x: PAD, width: chartWidth - 2 * PAD };
  const shapes: Shape[] = [];
  const total = model.bars.length === model.gaps ? "no data" : `${formatCount(model.total)} ${unit}`;
  const titleCells = Math.max(1, Math.floor((inner.width - width(total) - CELL) / CELL));
  shapes.push({
    kind: "text",
    x: PAD,
    y: PAD,
    text: fitText(model.title || (unit === "scans" ? "Scans over time" : "Clicks over time"), titleCells),
    colour: "text",
    align: "start",
  });
  shapes.push({ kind: "text", x: PAD + inner.width, y: PAD, text: total, colour: "text", align: "end" });
  let y = PAD + TEXT_HEIGHT + GAP;
  shapes.push({ kind: "rect", x: PAD, y, width: inner.width, height: 1, colour: "frame" });
  y += GAP;
  legend(shapes, PAD, y);
  y += TEXT_HEIGHT + 6;
  shapes.push({
    kind: "text",
    x: PAD,
    y,
    text: fitText(`Most in ${model.granularity === "hour" ? "an hour" : `a ${model.granularity}`}: ${formatCount(model.peak)}`, Math.floor(inner.width / CELL)),
    colour: "muted",
    align: "start",
  });
  y += TEXT_HEIGHT + 4;

  const top = y;
  const bottom = top + PLOT_HEIGHT;
  const count = Math.max(1, model.bars.length);
  const slot = inner.width / count;
  const spacing = slot >= 8 ? 2 : slot >= 4 ? 1 : 0;
  // Less than a pixel a bucket (a month of hours at 320 pixels): the last ones share the last pixel.
  const edge = (index: number) => Math.min(PAD + Math.round(index * slot), PAD + inner.width - 1);
  model.bars.forEach((bar, index) => {
    const left = edge(index);
    const slotWidth = Math.max(1, edge(index + 1) - left);
    if (bar.count === null) {
      shapes.push({ kind: "rect", x: left, y: top, width: slotWidth, height: PLOT_HEIGHT + 1, colour: "track" });
      return;
    }
    shapes.push({ kind: "rect", x: left, y: bottom, width: slotWidth, height: 1, colour: "frame" });
    if (bar.count === 0 || model.peak === 0) return;
    const height = Math.max(2, Math.round((PLOT_HEIGHT * bar.count) / model.peak));
    shapes.push({ kind: "rect", x: left, y: bottom - height, width: Math.max(1, slotWidth - spacing), height, colour: bar.exact ? "bar" : "unique" });
  });
  // A run of gaps wide enough says so in words.
  for (let start = 0; start < model.bars.length; ) {
    let end = start;
    while (end < model.bars.length && model.bars[end]!.count === null) end += 1;
    if (end > start && edge(end) - edge(start) >= width("no data") + 2 * CELL) {
      shapes.push({
        kind: "text",
        x: Math.round((edge(start) + edge(end) - width("no data")) / 2),
        y: top + Math.round((PLOT_HEIGHT - TEXT_HEIGHT) / 2),
        text: "no data",
        colour: "muted",
        align: "start",
      });
    }
    start = end + 1;
  }

  y = bottom + 1 + 6;
  const labels = model.bars.map((bar) => fitText(bar.label, LABEL_CELLS));
  const widest = labels.reduce((most, label) => Math.max(most, width(label)), 0);
  // Labels at round times (every 1, 2, 3, 4, 6 or 12 hours, then midnights; every 1, 2, 5 or 10 days; 1, 3 or 6 months), none overlapping.
  const needed = (widest + CELL) / slot;
  const step = STEPS[model.granularity].find((candidate) => candidate >= needed) ?? STEPS[model.granularity].at(-1)!;
  let free = PAD;
  model.bars.forEach((bar, index) => {
    const label = labels[index] as string;
    const x = edge(index);
    if (bar.position % step !== 0 || x < free || x + width(label) > PAD + inner.width) return;
    shapes.push({ kind: "rect", x, y: bottom + 1, width: 1, height: 4, colour: "frame" });
    shapes.push({ kind: "text", x, y, text: label, colour: "muted", align: "start" });
    free = x + width(label) + CELL;
  });
  return { width: chartWidth, height: y + TEXT_HEIGHT + PAD, shapes };
}
