// A stacked bar chart of spend per UTC day, in plain SVG (no chart library). Screen readers get a
// title and a one-line summary, and everyone can open the same numbers as a table.
import { formatMicros } from "@/lib/billing/rates";
import type { Usage } from "@/lib/billing/usage";
import list from "@/components/data-table.module.css";
import styles from "./balance.module.css";

const COLOURS = ["#0f766e", "#2563eb", "#c2410c", "#7c3aed", "#be185d", "#64748b"];
const MAX_SERIES = 5;
const BAR = 18;
const GAP = 8;
const LEFT = 4;

type Props = { id: string; title: string; usage: Usage; what: string };

/** Biggest series first; the rest folded into "other" so the colours stay few enough to tell apart. */
function seriesOf(usage: Usage) {
  const shown = usage.series.slice(0, MAX_SERIES).map((s, i) => ({ ...s, colour: COLOURS[i] as string }));
  const rest = usage.series.slice(MAX_SERIES);
  if (rest.length) {
    shown.push({
      key: "\u0000other",
      label: `${rest.length} other${rest.length === 1 ? "" : "s"}`,
      totalMicros: rest.reduce((s, r) => s + r.totalMicros, 0n),
      colour: COLOURS[MAX_SERIES] as string,
    });
  }
  const keyOf = (k: string) => (rest.some((r) => r.key === k) ? "\u0000other" : k);
  return { shown, keyOf };
}

export function UsageChart({ id, title, usage, what }: Props) {
  const { shown, keyOf } = seriesOf(usage);
  const perDay = new Map<string, Map<string, bigint>>();
  for (const c of usage.cells) {
    const day = perDay.get(c.day) ?? new Map<string, bigint>();
    const k = keyOf(c.key);
    day.set(k, (day.get(k) ?? 0n) + c.spentMicros);
    perDay.set(c.day, day);
  }
  const dayTotal = (day: string) => [...(perDay.get(day)?.values() ?? [])].reduce((s, v) => s + (v > 0n ? v : 0n), 0n);
  const max = usage.days.reduce((m, d) => (dayTotal(d) > m ? dayTotal(d) : m), 0n);
  const plot = LEFT + usage.days.length * (BAR + GAP);
  // Everything scales with the width, so 7 or 90 days keep the same shape and readable labels.
  const font = Math.max(11, Math.round(plot / 28));
  // Room on the right for the last day label, which starts at its bar.
  const width = plot + font * 3;
  const TOP = Math.round(font * 1.6);
  const HEIGHT = Math.max(140, Math.round(width * 0.4));
  const BOTTOM = Math.round(font * 1.9);
  const scale = (micros: bigint) => (max === 0n ? 0 : (Number(micros) / Number(max)) * HEIGHT);
  const labelEvery = Math.max(1, Math.ceil(usage.days.length / 5));
  const first = usage.days[0] ?? "";
  const last = usage.days[usage.days.length - 1] ?? "";
  const summary =
    usage.totalMicros === 0n
      ? `No spend from ${first} to ${last}.`
      : `${formatMicros(usage.totalMicros)} spent from ${first} to ${last}; highest day ${formatMicros(max)}. ` +
        shown.map((s) => `${s.label}: ${formatMicros(s.totalMicros)}`).join("; ") +
        ".";

  return (
    <figure className={styles.chart} aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`} className={styles.chartCaption}>
        {title}
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${TOP + HEIGHT + BOTTOM}`}
        className={styles.svg}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        preserveAspectRatio="xMinYMid meet"
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        <line x1={0} x2={width} y1={TOP + HEIGHT} y2={TOP + HEIGHT} stroke="#94a3b8" strokeWidth={1} />
        {max > 0n ? (
          <>
            <line x1={0} x2={width} y1={TOP} y2={TOP} stroke="#cbd5e1" strokeWidth={1} strokeDasharray="4 4" />
            <text x={LEFT} y={TOP - font * 0.4} fontSize={font} fill="#475569">
              {formatMicros(max)}
            </text>
          </>
        ) : null}
        {usage.days.map((day, i) => {
          const x = LEFT + i * (BAR + GAP);
          let y = TOP + HEIGHT;
          const values = perDay.get(day);
          return (
            <g key={day}>
              {shown.map((s) => {
                const v = values?.get(s.key) ?? 0n;
                if (v <= 0n) return null;
                const h = Math.max(1, scale(v));
                y -= h;
                return (
                  <rect key={s.key} x={x} y={y} width={BAR} height={h} fill={s.colour}>
                    <title>{`${day} · ${s.label}: ${formatMicros(v)}`}</title>
                  </rect>
                );
              })}
              {i % labelEvery === 0 ? (
                <text x={x} y={TOP + HEIGHT + font * 1.3} textAnchor="start" fontSize={font} fill="#475569">
                  {day.slice(5)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      {shown.length ? (
        <ul className={styles.legend} aria-label={`Colours of the ${what}`}>
          {shown.map((s) => (
            <li key={s.key}>
              <span className={styles.swatch} style={{ background: s.colour }} aria-hidden="true" />
              <span className={s.key.startsWith("\u0000") ? undefined : "mono"}>{s.label}</span>{" "}
              <span className="muted">{formatMicros(s.totalMicros)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{summary}</p>
      )}
      {usage.cells.length ? (
        <details className={styles.tableDetails}>
          <summary>Show these numbers as a table</summary>
          <div className="table-scroll" tabIndex={0} role="region" aria-label={`${title}, table`}>
            <table className="data-table">
              <caption className="visually-hidden">{title}</caption>
              <thead>
                <tr>
                  <th scope="col">Day (UTC)</th>
                  <th scope="col">{what === "skills" ? "Skill" : "Agent"}</th>
                  <th scope="col" className={list.num}>
                    Spent
                  </th>
                </tr>
              </thead>
              <tbody>
                {usage.cells.map((c) => (
                  <tr key={`${c.day} ${c.key}`}>
                    <td>{c.day}</td>
                    <td>{c.label}</td>
                    <td className={list.num}>{formatMicros(c.spentMicros)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      ) : null}
    </figure>
  );
}
