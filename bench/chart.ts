/** A dependency-free SVG bar chart: each scenario's requests/s beside the baseline's. */
interface ChartRow {
  scenario: string;
  crm: { rps: number };
  baseline: { rps: number };
  ratio: number;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function renderChart(result: { engine: string; contacts: number; rows: ChartRow[] }): string {
  const barH = 14,
    gap = 10,
    left = 330,
    width = 420,
    top = 40;
  const max = Math.max(1, ...result.rows.flatMap((r) => [r.crm.rps, r.baseline.rps]));
  const rowH = barH * 2 + gap;
  const height = top + result.rows.length * rowH + 30;
  const scale = (v: number) => Math.max(1, (v / max) * width);
  const bars = result.rows.map((r, i) => {
    const y = top + i * rowH;
    return [
      `<text x="${left - 8}" y="${y + barH + 4}" text-anchor="end">${esc(r.scenario)}</text>`,
      `<rect x="${left}" y="${y}" width="${scale(r.crm.rps).toFixed(1)}" height="${barH}" fill="#2f6fb3"/>`,
      `<text x="${left + scale(r.crm.rps) + 4}" y="${y + barH - 3}">${r.crm.rps.toFixed(0)} req/s (${(r.ratio * 100).toFixed(0)}%)</text>`,
      `<rect x="${left}" y="${y + barH}" width="${scale(r.baseline.rps).toFixed(1)}" height="${barH}" fill="#b7b7b7"/>`,
      `<text x="${left + scale(r.baseline.rps) + 4}" y="${y + 2 * barH - 3}" fill="#666">${r.baseline.rps.toFixed(0)}</text>`,
    ].join('');
  });
  const title =
    `Requests per second on ${esc(result.engine)}, ${result.contacts} contacts ` +
    '(blue: service, grey: bare koa baseline)';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${left + width + 160}" height="${height}" font-family="sans-serif" font-size="12">
<text x="10" y="20" font-size="14" font-weight="bold">${title}</text>
${bars.join('\n')}
</svg>
`;
}
