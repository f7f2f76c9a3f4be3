// `tune pick --plot FILE.svg`: latency at the chosen percentile against throughput, one line per
// variant (its points in load order), the latency budget as a dashed line, and the chosen point.
import type { PickResult } from './pick.js';
import { maxOf } from '../util/arrays.js';

const W = 800;
const H = 500;
const M = { left: 70, right: 220, top: 30, bottom: 50 };
const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const fmt = (n: number): string => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(n >= 10 ? 1 : 2));

/** Round numbers for an axis from 0 to about `max`. */
function ticks(max: number): number[] {
  if (max <= 0) return [0];
  const step = 10 ** Math.floor(Math.log10(max / 5));
  const nice = [1, 2, 5, 10].map((f) => f * step).find((s) => max / s <= 6) ?? 10 * step;
  return Array.from({ length: Math.floor(max / nice) + 1 }, (_, i) => i * nice);
}

export function plotSvg(result: PickResult): string {
  const p = result.percentile;
  const points = result.variants.flatMap((v) => v.rows.map((r) => ({ x: r.throughput, y: r.latencyUs[p]! / 1000 })));
  const maxX =
    maxOf(
      points.map((q) => q.x),
      1,
    ) * 1.05;
  const maxY =
    maxOf(
      points.map((q) => q.y),
      result.budgetUs / 1000,
    ) * 1.1;
  const px = (x: number) => M.left + (x / maxX) * (W - M.left - M.right);
  const py = (y: number) => H - M.bottom - (y / maxY) * (H - M.top - M.bottom);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  out.push(`<title>${esc(`${p} latency against throughput, budget ${fmt(result.budgetUs / 1000)} ms`)}</title>`);
  out.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  // Axes and grid.
  for (const t of ticks(maxX))
    out.push(
      `<line x1="${px(t)}" y1="${py(0)}" x2="${px(t)}" y2="${M.top}" stroke="#eee"/><text x="${px(t)}" y="${H - M.bottom + 16}" text-anchor="middle">${fmt(t)}</text>`,
    );
  for (const t of ticks(maxY))
    out.push(
      `<line x1="${M.left}" y1="${py(t)}" x2="${W - M.right}" y2="${py(t)}" stroke="#eee"/><text x="${M.left - 6}" y="${py(t) + 4}" text-anchor="end">${fmt(t)}</text>`,
    );
  out.push(
    `<line x1="${M.left}" y1="${py(0)}" x2="${W - M.right}" y2="${py(0)}" stroke="black"/><line x1="${M.left}" y1="${py(0)}" x2="${M.left}" y2="${M.top}" stroke="black"/>`,
  );
  out.push(`<text x="${(M.left + W - M.right) / 2}" y="${H - 12}" text-anchor="middle">throughput (infer/sec)</text>`);
  out.push(
    `<text x="16" y="${(M.top + H - M.bottom) / 2}" text-anchor="middle" transform="rotate(-90 16 ${(M.top + H - M.bottom) / 2})">${esc(p)} latency (ms)</text>`,
  );
  // The budget.
  const by = py(result.budgetUs / 1000);
  out.push(
    `<line class="budget" x1="${M.left}" y1="${by}" x2="${W - M.right}" y2="${by}" stroke="#d62728" stroke-dasharray="6 4"/><text x="${W - M.right - 4}" y="${by - 6}" text-anchor="end" fill="#d62728">budget ${fmt(result.budgetUs / 1000)} ms</text>`,
  );
  // One line per variant, and the legend.
  result.variants.forEach((v, i) => {
    const color = COLORS[i % COLORS.length]!;
    const pts = v.rows.map((r) => `${px(r.throughput).toFixed(1)},${py(r.latencyUs[p]! / 1000).toFixed(1)}`).join(' ');
    out.push(`<g class="variant" data-variant="${esc(v.variant)}"><polyline points="${pts}" fill="none" stroke="${color}" stroke-width="2"/>`);
    for (const r of v.rows)
      out.push(
        `<circle cx="${px(r.throughput).toFixed(1)}" cy="${py(r.latencyUs[p]! / 1000).toFixed(1)}" r="3" fill="${color}"><title>${esc(`${v.variant}: ${result.load} ${r.load}, ${fmt(r.throughput)} infer/sec, ${fmt(r.latencyUs[p]! / 1000)} ms`)}</title></circle>`,
      );
    out.push('</g>');
    const ly = M.top + 10 + i * 18;
    out.push(
      `<rect x="${W - M.right + 16}" y="${ly - 8}" width="12" height="12" fill="${color}"/><text x="${W - M.right + 34}" y="${ly + 2}">${esc(v.variant)}</text>`,
    );
  });
  if (result.best?.chosen) {
    const c = result.best.chosen;
    out.push(
      `<circle class="chosen" cx="${px(c.throughput).toFixed(1)}" cy="${py(c.latencyUs / 1000).toFixed(1)}" r="8" fill="none" stroke="black" stroke-width="2"><title>${esc(`chosen: ${result.best.variant} at ${result.load} ${c.load}`)}</title></circle>`,
    );
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
