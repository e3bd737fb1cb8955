import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useKernel } from '../../container.js';
import { ApiCallError } from '../../http/client.js';
import { PlainButton } from '../../ui/Plain.js';

interface Puzzle {
  id: string;
  background: string;
  piece: string;
  y: number;
  width: number;
  height: number;
}

/**
 * The landing slider puzzle: the server draws the picture and the gap (GET /captcha/slider), the
 * user drags the piece into it, the server checks the position (POST /captcha/slider/verify) and
 * answers a one-time ticket that goes with the login.
 */
export function SliderPuzzle({ onTicket }: { onTicket(ticket: string | null): void }) {
  const { http } = useKernel();
  const { t } = useTranslation('core');
  const [puzzle, setPuzzle] = useState<Puzzle | null>(null);
  const [x, setX] = useState(0);
  const [status, setStatus] = useState<'idle' | 'ok' | 'failed' | 'error'>('idle');
  const [message, setMessage] = useState<string | null>(null);
  const drag = useRef<{ startX: number; startLeft: number } | null>(null);
  const pieceWidth = useRef(0);

  async function load() {
    onTicket(null);
    setStatus('idle');
    setX(0);
    try {
      setPuzzle(await http.get<Puzzle>('/captcha/slider', { silent: true }));
      setMessage(null);
    } catch (e) {
      setStatus('error');
      setMessage(e instanceof ApiCallError ? e.msg : t('slider.loadFailed'));
    }
  }
  useEffect(() => void load(), []);

  async function verify(finalX: number) {
    if (!puzzle) return;
    try {
      const r = await http.post<{ ticket?: string; ok?: boolean } | string>('/captcha/slider/verify', { id: puzzle.id, x: Math.round(finalX) }, { silent: true });
      const ticket = typeof r === 'string' ? r : r?.ticket;
      if (!ticket) throw new Error(t('slider.failed'));
      setStatus('ok');
      onTicket(ticket);
    } catch (e) {
      setStatus('failed');
      setMessage(e instanceof ApiCallError ? e.msg : t('slider.failed'));
      setTimeout(() => void load(), 800);
    }
  }

  const max = puzzle ? puzzle.width - (pieceWidth.current || 40) : 0;
  const onDown = (e: PointerEvent<HTMLDivElement>) => {
    if (status === 'ok' || !puzzle) return;
    (e.target as HTMLElement).setPointerCapture(e.pointerId);
    drag.current = { startX: e.clientX, startLeft: x };
  };
  const onMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    setX(Math.max(0, Math.min(max, drag.current.startLeft + e.clientX - drag.current.startX)));
  };
  const onUp = () => {
    if (!drag.current) return;
    drag.current = null;
    void verify(x);
  };

  return (
    <div className="lp-slider" data-testid="slider-puzzle" data-status={status}>
      {puzzle ? (
        <div className="lp-slider-picture" style={{ width: puzzle.width, height: puzzle.height }}>
          <img src={puzzle.background} alt="" draggable={false} />
          <img
            className="lp-slider-piece"
            src={puzzle.piece}
            alt=""
            draggable={false}
            style={{ left: x, top: puzzle.y }}
            onLoad={(e) => (pieceWidth.current = e.currentTarget.naturalWidth)}
          />
        </div>
      ) : null}
      <div className="lp-slider-track" style={{ width: puzzle?.width ?? 280 }}>
        <div
          className={`lp-slider-handle lp-slider-${status}`}
          role="slider"
          aria-label={t('slider.label')}
          aria-valuemin={0}
          aria-valuemax={max}
          aria-valuenow={Math.round(x)}
          tabIndex={0}
          data-testid="slider-handle"
          style={{ left: x }}
          onPointerDown={onDown}
          onPointerMove={onMove}
          onPointerUp={onUp}
        >
          ⇆
        </div>
        <span className="lp-slider-hint">{status === 'ok' ? t('slider.ok') : t('slider.hint')}</span>
      </div>
      {message ? <div className="lp-muted" data-testid="slider-message">{message}</div> : null}
      {status === 'error' ? <PlainButton minimal text={t('slider.retry')} onClick={() => void load()} /> : null}
    </div>
  );
}
