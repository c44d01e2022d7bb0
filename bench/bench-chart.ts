/**
 * Draws the benchmark summary as an SVG: one panel per database, and in each a pair of horizontal bars per scenario,
 * Svc against the hand-written app, on one shared req/s scale. Hand-built markup, so the chart needs no dependency
 * and the same measurements always give the same file.
 */
import { databaseName, DATABASE_ORDER, grouped, inOrder, ratioOf, SCENARIO_ORDER, type Measurement } from './bench-log';

const WIDTH = 960;
const TOP = 112;
const LABEL_COLUMN = 132;
const PANEL_GAP = 36;
const RIGHT = 16;
const BOTTOM = 56;
const BAR = 11;
const BAR_GAP = 2;
const GROUP = 34;
/** Room right of the longest bar for its value and ratio label. */
const VALUE_ROOM = 92;
const SVC_COLOUR = '#2563eb';
const HAND_COLOUR = '#9ca3af';
const TEXT = '#111827';
const MUTED = '#4b5563';
const GRID = '#e5e7eb';
const FONT = "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif";

interface Panel {
  readonly database: string;
  readonly x: number;
  readonly width: number;
}

/** The SVG document for `measurements` (one per scenario and database, as `latestMeasurements` returns them). */
export function renderChartSvg(measurements: readonly Measurement[]): string {
  const scenarios = inOrder(
    SCENARIO_ORDER,
    measurements.map((m) => m.scenario),
  );
  const databases = inOrder(
    DATABASE_ORDER,
    measurements.map((m) => m.database),
  );
  const panelWidth = (WIDTH - LABEL_COLUMN - RIGHT - PANEL_GAP * (databases.length - 1)) / databases.length;
  const panels = databases.map((database, i): Panel => {
    return { database, x: LABEL_COLUMN + i * (panelWidth + PANEL_GAP), width: panelWidth };
  });
  const plotHeight = scenarios.length * GROUP;
  const height = TOP + plotHeight + BOTTOM;
  const largest = Math.max(1, ...measurements.flatMap((m) => [m.svc, m.handwritten]));
  const step = niceStep(largest / 4);
  const axisMax = step * Math.ceil(largest / step);
  const scale = (panel: Panel) => (value: number) => ((panel.width - VALUE_ROOM) * value) / axisMax;
  const find = (scenario: string, database: string) =>
    measurements.find((m) => m.scenario === scenario && m.database === database);

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" ` +
      `font-family="${FONT}" font-size="12" fill="${TEXT}">`,
    '<title>Svc against hand-written NestJS + TypeORM: median requests per second per scenario and database</title>',
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    text(16, 26, 'Svc against hand-written NestJS + TypeORM', { size: 16, weight: 'bold' }),
    text(
      16,
      46,
      'Median requests per second of the latest run of each scenario (docs/benchmarks/). Higher is better.',
      {
        fill: MUTED,
      },
    ),
    ...legend(16, 60),
  ];
  for (const panel of panels) {
    parts.push(...axis(panel, step, axisMax, scale(panel), plotHeight));
    parts.push(text(panel.x, TOP - 8, databaseName(panel.database), { weight: 'bold' }));
  }
  scenarios.forEach((scenario, row) => {
    const y = TOP + row * GROUP + (GROUP - 2 * BAR - BAR_GAP) / 2;
    parts.push(text(LABEL_COLUMN - 10, y + BAR + 4, scenario, { anchor: 'end' }));
    for (const panel of panels) {
      const measurement = find(scenario, panel.database);
      if (measurement) parts.push(...bars(panel, y, measurement, scale(panel)));
    }
  });
  parts.push('</svg>', '');
  return parts.join('\n');
}

function bars(panel: Panel, y: number, m: Measurement, x: (value: number) => number): string[] {
  const label = `${grouped(m.svc)} (${ratioOf(m).toFixed(2)}×)`;
  return [
    rect(panel.x, y, x(m.svc), BAR, SVC_COLOUR, `Svc: ${grouped(m.svc)} req/s`),
    text(panel.x + x(m.svc) + 4, y + BAR - 1.5, label, { size: 11 }),
    rect(
      panel.x,
      y + BAR + BAR_GAP,
      x(m.handwritten),
      BAR,
      HAND_COLOUR,
      `hand-written: ${grouped(m.handwritten)} req/s`,
    ),
    text(panel.x + x(m.handwritten) + 4, y + 2 * BAR + BAR_GAP - 1.5, grouped(m.handwritten), {
      size: 11,
      fill: MUTED,
    }),
  ];
}

function axis(panel: Panel, step: number, max: number, x: (value: number) => number, plotHeight: number): string[] {
  const out: string[] = [];
  for (let value = 0; value <= max; value += step) {
    const at = round(panel.x + x(value));
    out.push(`<line x1="${at}" y1="${TOP}" x2="${at}" y2="${TOP + plotHeight}" stroke="${GRID}"/>`);
    out.push(text(at, TOP + plotHeight + 16, grouped(value), { anchor: 'middle', size: 11, fill: MUTED }));
  }
  const middle = panel.x + x(max) / 2;
  out.push(text(middle, TOP + plotHeight + 36, 'requests per second', { anchor: 'middle', size: 11, fill: MUTED }));
  return out;
}

function legend(x: number, y: number): string[] {
  return [
    rect(x, y, 12, 12, SVC_COLOUR),
    text(x + 18, y + 10, 'Svc (Svc / hand-written in brackets)'),
    rect(x + 250, y, 12, 12, HAND_COLOUR),
    text(x + 268, y + 10, 'hand-written NestJS + TypeORM'),
  ];
}

function rect(x: number, y: number, width: number, height: number, fill: string, title?: string): string {
  const shape = `<rect x="${round(x)}" y="${round(y)}" width="${round(width)}" height="${height}" fill="${fill}"`;
  return title ? `${shape}><title>${escapeXml(title)}</title></rect>` : `${shape}/>`;
}

interface TextStyle {
  readonly anchor?: 'start' | 'middle' | 'end';
  readonly size?: number;
  readonly weight?: 'bold';
  readonly fill?: string;
}

function text(x: number, y: number, content: string, style: TextStyle = {}): string {
  const attributes = [
    `x="${round(x)}"`,
    `y="${round(y)}"`,
    style.anchor && style.anchor !== 'start' ? `text-anchor="${style.anchor}"` : '',
    style.size ? `font-size="${style.size}"` : '',
    style.weight ? `font-weight="${style.weight}"` : '',
    style.fill ? `fill="${style.fill}"` : '',
  ].filter(Boolean);
  return `<text ${attributes.join(' ')}>${escapeXml(content)}</text>`;
}

/** The first of 1, 2, 2.5 and 5 times a power of ten that is at least `rough`. */
function niceStep(rough: number): number {
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 2.5, 5, 10].map((factor) => factor * power).find((step) => step >= rough)!;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
