import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, ButtonGroup, Callout, Card, Checkbox, H5, HTMLSelect, Intent, Spinner, Tag, TextArea, Tooltip } from '@blueprintjs/core';
import { definePlugin, Slot, useApi, useLastLanguagePair, useNotify, usePermission, useTranslation, type ApiErrorInfo } from '@linguaport/sdk/console';
import { DEFAULT_TEXT_TRANSLATION_CAP, languageDisplayName } from '@linguaport/sdk/shared';

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
  /** The memories and term bases the translation used (absent: the user's defaults). */
  resources?: { memories?: number[]; termBases?: number[] };
  /** Puts a translation (a fuzzy match's) in place of one segment's, marked with where it came from. */
  onInsert?(segmentId: string, target: string, origin: { kind: string; hook?: string; score?: number }): void;
}

interface Library {
  id: number;
  name: string;
  isDefault: boolean;
}

/** The memories or term bases the user may use (null while loading, or when the area is not there or refuses). */
function useLibraries(url: string | null): Library[] | null {
  const api = useApi();
  const [list, setList] = useState<Library[] | null>(null);
  useEffect(() => {
    if (!url) return setList(null);
    api.get<{ records: Library[] }>(url, { params: { pageNum: 1, pageSize: 200 }, silent: true }).then((r) => setList(r.records ?? []), () => setList(null));
  }, [api, url]);
  return list;
}

/** Checkboxes over libraries; the user's defaults come preselected. */
function LibraryPicker({ label, libraries, value, onChange, testId }: { label: string; libraries: Library[]; value: number[]; onChange(v: number[]): void; testId: string }) {
  if (libraries.length === 0) return null;
  return (
    <div data-testid={testId} style={{ display: 'flex', flexWrap: 'wrap', gap: 6, alignItems: 'center' }}>
      <span style={{ color: '#5f6b7c' }}>{label}</span>
      {libraries.map((l) => (
        <Checkbox key={l.id} inline style={{ margin: 0 }} label={l.name} checked={value.includes(l.id)} onChange={() => onChange(value.includes(l.id) ? value.filter((x) => x !== l.id) : [...value, l.id])} />
      ))}
    </div>
  );
}

/** Defaults preselected once the list arrives; the user's later choice is kept. */
function useChoice(list: Library[] | null): [number[], (v: number[]) => void] {
  const [chosen, setChosen] = useState<number[] | null>(null);
  useEffect(() => {
    if (list && chosen === null) setChosen(list.filter((l) => l.isDefault).map((l) => l.id));
  }, [list, chosen]);
  return [chosen ?? [], setChosen];
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

/**
 * The text with one segment's translation replaced. The server's text is the segments' translations
 * with what lay between the source sentences (spaces, line breaks) kept as it was, and the segments do
 * not hold it: so the segments are found in order in the text, never joined again (that lost the spaces).
 */
export function replaceSegment(text: string, segments: ReadonlyArray<{ id: string; target: string }>, segmentId: string, target: string): string {
  let at = 0;
  for (const s of segments) {
    const i = text.indexOf(s.target, at);
    if (i < 0) break;
    if (s.id === segmentId) return text.slice(0, i) + target + text.slice(i + s.target.length);
    at = i + s.target.length;
  }
  // The text no longer holds the segments (a result edited by hand): the segments are all there is.
  return segments.map((s) => (s.id === segmentId ? target : s.target)).join('');
}

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
  const permissions = usePermission();
  const memoryList = useLibraries(permissions.hasRoute('/TM') ? '/TM/library/list' : null);
  const termList = useLibraries(permissions.hasRoute('/term') ? '/term/library/list' : null);
  const [memories, setMemories] = useChoice(memoryList);
  const [termBases, setTermBases] = useChoice(termList);
  // What the pickers say is what is used: an empty choice is no memory (the server reads a missing key as the defaults).
  const resources = useMemo(() => ({ ...(memoryList ? { memories } : {}), ...(termList ? { termBases } : {}) }), [memoryList, memories, termList, termBases]);

  const name = useCallback((code: string) => languageDisplayName(code, i18n.language), [i18n.language]);

  const lastPair = useLastLanguagePair('text');
  const { remember } = lastPair;
  // Remember what the user picks (once the languages are there, so the defaults are not stored as a choice).
  useEffect(() => {
    if (setup && target) remember(source, target);
  }, [setup, source, target, remember]);

  const loadHistory = useCallback(() => {
    api.get<HistoryItem[]>('/transText/history', { silent: true }).then(setHistory, () => {});
  }, [api]);

  useEffect(() => {
    api.get<Setup>('/transText/languages', { silent: true }).then(
      (s) => {
        setSetup(s);
        // The user's last pair here wins over the site's default when the engines still offer it.
        const lastSource = lastPair.pair?.source;
        const lastOk = !!lastPair.pair && (lastSource === AUTO || s.languages.some((l) => l.code === lastSource));
        const src = s.languages.find((l) => l.code === (lastOk ? lastSource : s.defaultSource));
        if (src) setSource(src.code);
        else if (lastOk) setSource(AUTO);
        const targets = src ? src.targets : [...new Set(s.languages.flatMap((l) => l.targets))];
        const wanted = lastOk && targets.includes(lastPair.pair!.target) ? lastPair.pair!.target : s.defaultTarget;
        setTarget(targets.includes(wanted ?? '') ? wanted! : (targets[0] ?? ''));
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
    const key = `${source}|${target}|${text}|${JSON.stringify(resources)}`;
    if (busy || (lastSubmit.current.key === key && Date.now() - lastSubmit.current.at < 1000)) return;
    if (text.trim() === '') return setError(t('sourceRequired'));
    if (overCap) return;
    lastSubmit.current = { key, at: Date.now() };
    setBusy(true);
    setError(null);
    setEditing(false);
    try {
      const r = await api.post<Translation>('/transText/translate', { text, source, target, resources }, { silent: true });
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
  }, [api, busy, loadHistory, overCap, resources, source, t, target, text]);

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

  // A fuzzy match inserted from the side panel replaces its segment's translation in place in the text.
  const insert = useCallback((segmentId: string, value: string, origin: { kind: string; hook?: string; score?: number }) => {
    setResult((r) => {
      const old = r?.segments?.find((s) => s.id === segmentId);
      if (!r?.segments || !old) return r;
      const target = `${/^\s*/.exec(old.source)![0]}${value.trim()}${/\s*$/.exec(old.source)![0]}`;
      const segments = r.segments.map((s) => (s.id === segmentId ? { ...s, target, origin } : s));
      return { ...r, segments, text: replaceSegment(r.text, r.segments, segmentId, target) };
    });
  }, []);

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
        {memoryList && <LibraryPicker label={t('memories')} libraries={memoryList} value={memories} onChange={setMemories} testId="pick-memories" />}
        {termList && <LibraryPicker label={t('termBases')} libraries={termList} value={termBases} onChange={setTermBases} testId="pick-term-bases" />}
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
        <Slot<TransTextPanelProps> name="transText.sidePanel" props={{ text: resultFor.text, source: result.source, target: result.target, segments: result.segments ?? [], resources, onInsert: insert }} />
      )}
      {result?.segments?.some((s) => s.origin.hook === 'tm') && (
        // Which sentence came from a memory, with its score; the others from the engine.
        <Card data-testid="segment-origins" style={{ display: 'grid', gap: 4 }}>
          <H5>{t('sentences')}</H5>
          {result.segments.filter((s) => s.source.trim()).map((s) => (
            <div key={s.id} data-origin={s.origin.hook ?? s.origin.kind}>
              {s.origin.hook === 'tm' ? <Tag intent={Intent.SUCCESS} minimal>{t('fromMemory', { score: s.origin.score ?? 100 })}</Tag> : <Tag minimal>{t('fromEngine')}</Tag>} {s.target.trim()}
            </div>
          ))}
        </Card>
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
                <Tag minimal>{name(h.source)} → {name(h.target)}</Tag> {h.sourceText.slice(0, 60)} — {h.targetText.slice(0, 60)}
              </a>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}

export default definePlugin({ id: 'trans-text', views: { TransText } });
