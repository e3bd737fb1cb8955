import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, ButtonGroup, Callout, Card, H5, HTMLSelect, Intent, Spinner, Tag, TextArea, Tooltip } from '@blueprintjs/core';
import { definePlugin, Slot, useApi, useNotify, useTranslation, type ApiErrorInfo } from '@linguaport/sdk/console';
import { DEFAULT_TEXT_TRANSLATION_CAP } from '@linguaport/sdk/shared';

interface EngineLanguage {
  code: string;
  targets: string[];
}
interface Setup {
  languages: EngineLanguage[];
  defaultSource: string | null;
  defaultTarget: string | null;
  cap: number;
}
interface Translation {
  id: number;
  text: string;
  source: string;
  target: string;
  detected: { language: string; confidence: number; translatable?: boolean } | null;
  /** Each sentence with where its translation came from (an engine, a memory) and what the hooks found. */
  segments?: Array<{ id: string; source: string; target: string; origin: { kind: string; hook?: string; score?: number }; issues: { code: string; message: string; severity: string }[] }>;
}

/** What the areas filling the side panel (memories, terms) receive: the translated text, its languages and segments. */
export interface TransTextPanelProps {
  text: string;
  source: string;
  target: string;
  segments: NonNullable<Translation['segments']>;
}
interface HistoryItem {
  id: number;
  source: string;
  target: string;
  sourceText: string;
  targetText: string;
  createdAt: string;
}

const AUTO = 'auto';

function countChars(text: string): number {
  let n = 0;
  for (const ch of text) if (ch !== '\n' && ch !== '\r') n++;
  return n;
}

/** Text translation (/transText): no minimum width, usable on a phone. */
function TransText() {
  const { t, i18n } = useTranslation('transText');
  const api = useApi();
  const notify = useNotify();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [source, setSource] = useState(AUTO);
  const [target, setTarget] = useState('');
  const [text, setText] = useState('');
  const [result, setResult] = useState<Translation | null>(null);
  // The request the shown result answers: when the text or a language changes after it, the result is stale.
  const [resultFor, setResultFor] = useState<{ text: string; source: string; target: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [detecting, setDetecting] = useState(false);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const [history, setHistory] = useState<HistoryItem[]>([]);
  const lastSubmit = useRef({ key: '', at: 0 });

  const name = useCallback(
    (code: string) => {
      try {
        return new Intl.DisplayNames([i18n.language], { type: 'language' }).of(code) ?? code;
      } catch {
        return code;
      }
    },
    [i18n.language],
  );

  const loadHistory = useCallback(() => {
    api.get<HistoryItem[]>('/transText/history', { silent: true }).then(setHistory, () => {});
  }, [api]);

  useEffect(() => {
    api.get<Setup>('/transText/languages', { silent: true }).then(
      (s) => {
        setSetup(s);
        const src = s.languages.find((l) => l.code === s.defaultSource);
        if (src) setSource(src.code);
        const targets = src ? src.targets : [...new Set(s.languages.flatMap((l) => l.targets))];
        setTarget(targets.includes(s.defaultTarget ?? '') ? s.defaultTarget! : (targets[0] ?? ''));
      },
      (err: ApiErrorInfo) => setLoadError(err.msg),
    );
    loadHistory();
  }, [api, loadHistory]);

  const allTargets = useMemo(() => [...new Set((setup?.languages ?? []).flatMap((l) => l.targets))].sort(), [setup]);
  const targets = source === AUTO ? allTargets : (setup?.languages.find((l) => l.code === source)?.targets ?? []);
  const chars = countChars(text);
  const cap = setup?.cap ?? DEFAULT_TEXT_TRANSLATION_CAP;
  const overCap = chars > cap;
  const effectiveSource = source === AUTO ? result?.detected?.language : source;
  // Swap needs a known source and an engine for the reverse direction; never while detecting.
  const stale = !!result && !!resultFor && (resultFor.text !== text || resultFor.source !== source || resultFor.target !== target);
  // Languages loaded, but no running engine offers any: nothing can be translated until one is started.
  const noEngineRunning = !!setup && setup.languages.length === 0;
  const canSwap = !detecting && !!effectiveSource && !!setup?.languages.find((l) => l.code === target)?.targets.includes(effectiveSource);

  const translate = useCallback(async () => {
    // No rapid repeated submits: one request in flight, and the same request not again within a second.
    const key = `${source}|${target}|${text}`;
    if (busy || (lastSubmit.current.key === key && Date.now() - lastSubmit.current.at < 1000)) return;
    if (text.trim() === '') return setError(t('sourceRequired'));
    if (overCap) return;
    lastSubmit.current = { key, at: Date.now() };
    setBusy(true);
    setError(null);
    setEditing(false);
    try {
      const r = await api.post<Translation>('/transText/translate', { text, source, target }, { silent: true });
      setResult(r);
      setResultFor({ text, source, target });
      loadHistory();
    } catch (err) {
      const e = err as ApiErrorInfo;
      setResult(null);
      setError(e.code === 503 ? t('interrupted') : e.msg);
    } finally {
      setBusy(false);
    }
  }, [api, busy, loadHistory, overCap, source, t, target, text]);

  const detect = useCallback(async () => {
    if (text.trim() === '') return setError(t('sourceRequired'));
    setDetecting(true);
    try {
      const d = await api.post<{ language: string; confidence: number; translatable: boolean }>('/transText/detect', { text }, { silent: true });
      if (d.language === 'unknown') notify.warning(t('detectUnknown'));
      // A clear answer no engine takes: said as such, not blamed on the text.
      else if (!d.translatable) setError(t('noEngine', { name: name(d.language) }));
      else {
        setError(null);
        setSource(d.language);
        const next = setup?.languages.find((l) => l.code === d.language)?.targets ?? [];
        if (!next.includes(target) && next[0]) setTarget(next[0]);
      }
    } catch (err) {
      setError((err as ApiErrorInfo).msg);
    } finally {
      setDetecting(false);
    }
  }, [api, name, notify, setup, t, target, text]);

  const swap = () => {
    if (!canSwap || !effectiveSource) return;
    setSource(target);
    setTarget(effectiveSource);
    if (result) {
      setText(result.text);
      setResult(null);
    }
  };

  const saveEdit = async () => {
    if (!result) return;
    if (draft.trim() === '') return setError(t('editRequired'));
    try {
      await api.put(`/transText/history/${result.id}`, { targetText: draft }, { silent: true });
      setResult({ ...result, text: draft });
      setEditing(false);
      notify.success(t('saved'));
      loadHistory();
    } catch (err) {
      setError((err as ApiErrorInfo).msg);
    }
  };

  const copy = async () => {
    if (!result) return;
    try {
      await navigator.clipboard.writeText(result.text);
      notify.success(t('copied'));
    } catch {
      notify.error(t('copyFailed'));
    }
  };

  const changeText = (value: string) => {
    setText(value);
    // An error about the earlier text no longer applies to the new one.
    setError(null);
  };

  if (loadError) return <Callout intent={Intent.DANGER} style={{ margin: 16 }}>{t('loadFailed', { msg: loadError })}</Callout>;

  return (
    <div data-testid="trans-text" style={{ padding: 12, display: 'grid', gap: 12, maxWidth: 1200 }}>
      {!setup && (
        <div data-testid="trans-loading" style={{ display: 'flex', gap: 8, alignItems: 'center', color: '#5f6b7c' }}>
          <Spinner size={16} /> {t('loadingLanguages')}
        </div>
      )}
      {noEngineRunning && (
        <Callout intent={Intent.WARNING} icon="offline" title={t('noEngineRunningTitle')} data-testid="no-engine-running">
          {t('noEngineRunning')}
        </Callout>
      )}
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center' }}>
        <HTMLSelect aria-label={t('source')} data-testid="source-language" value={source} onChange={(e) => setSource(e.currentTarget.value)}>
          <option value={AUTO}>{t('autoDetect')}</option>
          {(setup?.languages ?? []).map((l) => (
            <option key={l.code} value={l.code}>{name(l.code)}</option>
          ))}
        </HTMLSelect>
        <Tooltip content={t('swap')} disabled={!canSwap}>
          <Button icon="swap-horizontal" aria-label={t('swap')} data-testid="swap" disabled={!canSwap} onClick={swap} />
        </Tooltip>
        <HTMLSelect aria-label={t('target')} data-testid="target-language" value={target} onChange={(e) => setTarget(e.currentTarget.value)}>
          {targets.map((code) => (
            <option key={code} value={code}>{name(code)}</option>
          ))}
        </HTMLSelect>
        <Button icon="search-text" data-testid="detect" loading={detecting} onClick={detect} text={t('detect')} />
        <Button intent={Intent.PRIMARY} icon="translate" data-testid="translate" loading={busy} disabled={!setup || overCap || !target} onClick={translate} text={t('translate')} />
      </div>
      <div style={{ display: 'grid', gap: 12, gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))' }}>
        <div>
          <TextArea
            data-testid="source-text"
            aria-label={t('sourceText')}
            fill
            rows={8}
            placeholder={t('placeholder')}
            value={text}
            intent={overCap ? Intent.DANGER : Intent.NONE}
            onChange={(e) => changeText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void translate();
            }}
          />
          <div data-testid="char-counter" style={{ textAlign: 'right', color: overCap ? '#c23030' : '#5f6b7c', fontSize: 12 }}>
            {t('counter', { n: chars, cap })}
          </div>
          {overCap && <Callout intent={Intent.WARNING}>{t('overCap', { cap })}</Callout>}
        </div>
        <div>
          {editing ? (
            <TextArea data-testid="target-edit" aria-label={t('translation')} fill rows={8} value={draft} onChange={(e) => setDraft(e.currentTarget.value)} />
          ) : (
            <TextArea
              data-testid="target-text"
              data-stale={stale || undefined}
              aria-label={t('translation')}
              fill
              rows={8}
              readOnly
              value={result?.text ?? ''}
              placeholder={busy ? t('translating') : t('resultPlaceholder')}
              style={stale || busy ? { color: '#8f99a8' } : undefined}
            />
          )}
          <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginTop: 6, alignItems: 'center' }}>
            {stale && !busy && <Tag minimal intent={Intent.WARNING} icon="outdated" data-testid="result-stale">{t('stale')}</Tag>}
            {result?.detected && source === AUTO && <Tag minimal data-testid="detected">{t('detected', { name: name(result.detected.language) })}</Tag>}
            <ButtonGroup>
              {editing ? (
                <>
                  <Button icon="tick" data-testid="save-edit" onClick={saveEdit} text={t('save')} />
                  <Button icon="cross" onClick={() => setEditing(false)} text={t('cancel')} />
                </>
              ) : (
                <Button icon="edit" data-testid="edit" disabled={!result} onClick={() => { setDraft(result?.text ?? ''); setEditing(true); }} text={t('edit')} />
              )}
              <Button icon="duplicate" data-testid="copy" disabled={!result} onClick={copy} text={t('copy')} />
              {result && resultFor && (
                // Actions other areas add beside Edit and Copy (the term area's "Add a term").
                <Slot<TransTextPanelProps> name="transText.actions" props={{ text: resultFor.text, source: result.source, target: result.target, segments: result.segments ?? [] }} />
              )}
            </ButtonGroup>
          </div>
        </div>
      </div>
      {error && <Callout intent={Intent.DANGER} data-testid="trans-error">{error}</Callout>}
      {result && resultFor && (
        // Other areas show what they know of this result beside it (memory matches, recognised terms).
        <Slot<TransTextPanelProps> name="transText.sidePanel" props={{ text: resultFor.text, source: result.source, target: result.target, segments: result.segments ?? [] }} />
      )}
      <Card>
        <H5>{t('history')}</H5>
        {history.length === 0 && <div style={{ color: '#5f6b7c' }}>{t('noHistory')}</div>}
        <ul data-testid="history" style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: 6 }}>
          {history.map((h) => (
            <li key={h.id}>
              <a
                role="button"
                onClick={() => {
                  setSource(h.source);
                  setTarget(h.target);
                  setText(h.sourceText);
                  setResult({ id: h.id, text: h.targetText, source: h.source, target: h.target, detected: null });
                  setResultFor({ text: h.sourceText, source: h.source, target: h.target });
                }}
              >
                <Tag minimal>{h.source} → {h.target}</Tag> {h.sourceText.slice(0, 60)} — {h.targetText.slice(0, 60)}
              </a>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}

export default definePlugin({ id: 'trans-text', views: { TransText } });
