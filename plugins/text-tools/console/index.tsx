import { useState } from 'react';
import { Button, Callout, HTMLSelect, Intent, Tag, TextArea } from '@blueprintjs/core';
import { definePlugin, useApi, useTranslation, type ApiErrorInfo } from '@linguaport/sdk/console';

const LANGUAGES = ['en', 'zh-CN', 'es', 'fr', 'ca', 'de', 'ja'];

function useTool<T>(url: string) {
  const api = useApi();
  const [result, setResult] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (body: object) => {
    setBusy(true);
    setError(null);
    try {
      setResult(await api.post<T>(url, body, { silent: true }));
    } catch (err) {
      setError((err as ApiErrorInfo).msg);
    } finally {
      setBusy(false);
    }
  };
  return { result, error, busy, run };
}

function Frame({ testId, children, onRun, busy, error, language, setLanguage }: {
  testId: string;
  children: React.ReactNode;
  onRun(text: string): void;
  busy: boolean;
  error: string | null;
  language?: string;
  setLanguage?(code: string): void;
}) {
  const { t } = useTranslation('textTools');
  const [text, setText] = useState('');
  return (
    <div data-testid={testId} style={{ padding: 12, display: 'grid', gap: 10, maxWidth: 1000 }}>
      <TextArea fill rows={8} aria-label={t('input')} data-testid="tool-input" placeholder={t('placeholder')} value={text} onChange={(e) => setText(e.currentTarget.value)} />
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
        {setLanguage && (
          <HTMLSelect aria-label={t('language')} value={language} onChange={(e) => setLanguage(e.currentTarget.value)}>
            {LANGUAGES.map((c) => (
              <option key={c} value={c}>{c}</option>
            ))}
          </HTMLSelect>
        )}
        <Button intent={Intent.PRIMARY} data-testid="tool-run" loading={busy} disabled={text.trim() === ''} onClick={() => onRun(text)} text={t('run')} />
      </div>
      {error && <Callout intent={Intent.DANGER}>{error}</Callout>}
      {children}
    </div>
  );
}

function Detect() {
  const { t } = useTranslation('textTools');
  const tool = useTool<{ language: string; confidence: number }>('/language/detect');
  return (
    <Frame testId="tool-detect" busy={tool.busy} error={tool.error} onRun={(text) => tool.run({ text })}>
      {tool.result && (
        <div data-testid="tool-result">
          {tool.result.language === 'unknown' ? t('unknown') : t('detected', { code: tool.result.language, confidence: Math.round(tool.result.confidence * 100) })}
        </div>
      )}
    </Frame>
  );
}

function Clause() {
  const { t } = useTranslation('textTools');
  const [language, setLanguage] = useState('en');
  const tool = useTool<{ sentences: string[] }>('/clause/split');
  return (
    <Frame testId="tool-clause" busy={tool.busy} error={tool.error} language={language} setLanguage={setLanguage} onRun={(text) => tool.run({ text, language })}>
      {tool.result && (
        <ol data-testid="tool-result">
          <div>{t('sentences', { n: tool.result.sentences.length })}</div>
          {tool.result.sentences.map((s, i) => (
            <li key={i}>{s}</li>
          ))}
        </ol>
      )}
    </Frame>
  );
}

function Participle() {
  const { t } = useTranslation('textTools');
  const [language, setLanguage] = useState('zh-CN');
  const tool = useTool<{ words: string[] }>('/participle/segment');
  return (
    <Frame testId="tool-participle" busy={tool.busy} error={tool.error} language={language} setLanguage={setLanguage} onRun={(text) => tool.run({ text, language })}>
      {tool.result && (
        <div data-testid="tool-result" style={{ display: 'flex', flexWrap: 'wrap', gap: 4 }}>
          <div style={{ width: '100%' }}>{t('words', { n: tool.result.words.length })}</div>
          {tool.result.words.map((w, i) => (
            <Tag key={i} minimal>{w}</Tag>
          ))}
        </div>
      )}
    </Frame>
  );
}

export default definePlugin({ id: 'text-tools', views: { Detect, Clause, Participle } });
