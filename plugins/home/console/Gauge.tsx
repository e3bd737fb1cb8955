/** A ring gauge: value 0-100 (null: no reading yet), a label and a detail line. Plain SVG: no chart library. */
export function Gauge(props: { label: string; value: number | null; detail?: string; testId?: string; unavailable?: string }) {
  const r = 38;
  const circumference = 2 * Math.PI * r;
  const v = props.value === null ? 0 : Math.max(0, Math.min(100, props.value));
  const colour = v >= 90 ? '#cd4246' : v >= 70 ? '#c87619' : 'var(--lp-theme, #353f9d)';
  return (
    <div data-testid={props.testId} data-value={props.value ?? ''} style={{ display: 'grid', justifyItems: 'center', gap: 4, minWidth: 120 }}>
      <svg width={96} height={96} viewBox="0 0 96 96" role="img" aria-label={`${props.label} ${props.value ?? ''}%`}>
        <circle cx={48} cy={48} r={r} fill="none" stroke="#e5e8eb" strokeWidth={10} />
        {props.value !== null && (
          <circle cx={48} cy={48} r={r} fill="none" stroke={colour} strokeWidth={10} strokeDasharray={`${(v / 100) * circumference} ${circumference}`} transform="rotate(-90 48 48)" strokeLinecap="round" />
        )}
        <text x={48} y={53} textAnchor="middle" fontSize={16} fontWeight={600} fill="currentColor">
          {props.unavailable ? '–' : props.value === null ? '…' : `${props.value.toFixed(1)}%`}
        </text>
      </svg>
      <strong>{props.label}</strong>
      <span className="bp6-text-muted" style={{ fontSize: 12, textAlign: 'center' }}>{props.unavailable ?? props.detail}</span>
    </div>
  );
}
