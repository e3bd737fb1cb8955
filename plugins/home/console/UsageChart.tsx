import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** Characters per day and channel. uPlot lives in this plugin's bundle only, not in the host. */
export function UsageChart(props: { days: string[]; series: Array<{ label: string; values: number[]; colour: string }>; height?: number; dayLabel: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = props.days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const chart = new uPlot(
      {
        width: Math.max(320, el.clientWidth),
        height: props.height ?? 220,
        scales: { x: { time: true } },
        series: [{ label: props.dayLabel }, ...props.series.map((s) => ({ label: s.label, stroke: s.colour, fill: `${s.colour}22`, width: 2 }))],
        axes: [{}, { size: 60 }],
      },
      [xs, ...props.series.map((s) => s.values)],
      el,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(320, el.clientWidth), height: props.height ?? 220 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [props.days, props.series, props.height, props.dayLabel]);
  return <div ref={box} data-testid="usage-chart" style={{ width: '100%' }} />;
}
