// A reliability diagram as a small self-contained SVG: for each set, the share of states right
// against the confidence given them (bins of 0.1), beside the diagonal of perfect calibration.

import type { Reliability } from '../core/confidence';

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c'];

export function reliabilitySvg(series: readonly { label: string; reliability: Reliability }[], title: string): string {
  const size = 320;
  const pad = 44;
  const plot = size - 2 * pad;
  const x = (v: number) => pad + v * plot;
  const y = (v: number) => size - pad - v * plot;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size + 160}" height="${size}" font-family="sans-serif" font-size="11">`,
    `<rect width="${size + 160}" height="${size}" fill="white"/>`,
    `<text x="${pad}" y="18" font-size="12">${escapeXml(title)}</text>`,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(0)}" stroke="#999"/>`,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(0)}" y2="${y(1)}" stroke="#999"/>`,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#bbb" stroke-dasharray="4 3"/>`,
    `<text x="${x(0.5)}" y="${size - 10}" text-anchor="middle">confidence</text>`,
    `<text x="12" y="${y(0.5)}" transform="rotate(-90 12 ${y(0.5)})" text-anchor="middle">share right</text>`,
  ];
  for (const t of [0, 0.5, 1]) {
    parts.push(`<text x="${x(t)}" y="${y(0) + 14}" text-anchor="middle">${t}</text>`, `<text x="${x(0) - 6}" y="${y(t) + 4}" text-anchor="end">${t}</text>`);
  }
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length]!;
    const bins = s.reliability.bins.filter((b) => b.n > 0);
    parts.push(`<polyline fill="none" stroke="${color}" stroke-width="1.5" points="${bins.map((b) => `${x(b.confidence).toFixed(1)},${y(b.accuracy).toFixed(1)}`).join(' ')}"/>`);
    for (const b of bins) parts.push(`<circle cx="${x(b.confidence).toFixed(1)}" cy="${y(b.accuracy).toFixed(1)}" r="${Math.min(7, 2 + Math.sqrt(b.n) / 3).toFixed(1)}" fill="${color}" fill-opacity="0.6"/>`);
    const ly = pad + 16 * i;
    parts.push(`<rect x="${size}" y="${ly - 9}" width="10" height="10" fill="${color}"/>`, `<text x="${size + 14}" y="${ly}">${escapeXml(s.label)} (ECE ${s.reliability.ece.toFixed(3)})</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
