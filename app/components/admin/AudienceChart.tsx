import { useEffect, useRef } from "react";

/**
 * A small line chart of the Audience screen, drawn by uPlot. The library is loaded with import()
 * the first time a chart shows, so it is part of this admin page only, never of a listener's page.
 * The figures are also in the table next to it (screen readers, no JavaScript).
 */
export interface ChartSeries {
  label: string;
  /** One per label; null where there is no figure (drawn as a gap). */
  values: (number | null)[];
}

const X_STEPS = [1, 2, 3, 4, 6, 12, 24, 48, 72, 168];

export function AudienceChart({ labels, series, label }: { labels: string[]; series: ChartSeries[]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element || labels.length === 0) return;
    let chart: { destroy(): void; setSize(size: { width: number; height: number }): void } | null = null;
    let resize: ResizeObserver | null = null;
    let gone = false;
    void import("uplot").then(({ default: UPlot }) => {
      if (gone) return;
      const styles = getComputedStyle(element);
      const accent = styles.getPropertyValue("--accent").trim() || "#ff3d6e";
      const text = styles.getPropertyValue("--text-muted").trim() || "#888";
      const line = styles.getPropertyValue("--line").trim() || "#444";
      const colours = [accent, "#3b82f6", "#22c55e", "#f59e0b", "#a855f7", "#14b8a6"];
      const axis = { stroke: text, grid: { stroke: line, width: 1 }, ticks: { stroke: line, width: 1 } };
      chart = new UPlot(
        {
          width: element.clientWidth,
          height: 220,
          // A legend only tells the lines apart (their figures are in the table): no live values, and
          // so no entry for the x values either ("Value: --").
          legend: { show: series.length > 1, live: false },
          scales: { x: { time: false } },
          axes: [
            {
              ...axis,
              // Whole steps only (every label is one of `labels`, never a repeat between two), far
              // enough apart for a label like "Mon 06" or "9 Nov": 1, 2 or 3 weeks, 6 hours, a day.
              incrs: X_STEPS,
              space: 64,
              values: (_plot, ticks) => ticks.map((tick) => (Number.isInteger(tick) ? (labels[tick] ?? "") : "")),
            },
            axis,
          ],
          series: [{}, ...series.map((entry, index) => ({ label: entry.label, stroke: colours[index % colours.length], width: 2 }))],
        },
        [labels.map((_, index) => index), ...series.map((entry) => entry.values)],
        element,
      );
      resize = new ResizeObserver(() => chart?.setSize({ width: element.clientWidth, height: 220 }));
      resize.observe(element);
    });
    return () => {
      gone = true;
      resize?.disconnect();
      chart?.destroy();
    };
  }, [labels, series]);
  return <div ref={box} className="audience-chart" role="img" aria-label={label} />;
}
