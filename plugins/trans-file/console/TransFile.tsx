import { useCallback, useMemo, useState } from 'react';
import { Button, ButtonGroup, Callout, Dialog, Classes, FormGroup, Intent, Menu, MenuItem, NumericInput, Popover, Switch, Tag, Tooltip } from '@blueprintjs/core';
import { PageHeader, PagedTable, SearchBar, StatusTag, useApi, useNotify, usePermission, usePlatform, useTranslation, type ApiErrorInfo, type PagedColumn } from '@linguaport/sdk/console';
import { actionsFrom, documentFile, formatDate, formatSize } from '@linguaport/sdk/shared';
import type { FileRow, Settings } from '../shared/schemas.js';
import { DeleteFilesDialog, download, FileStatus, NS, useFileList, useLanguageName, useSetup, useStates } from './common.js';
import { useUploadDialog } from './FileUploadDialog.js';
import { UploadDialog } from './UploadDialog.js';

/** The document area's settings (managers): upload limits, queue length, default storage quota. */
function SettingsDialog({ isOpen, onClose }: { isOpen: boolean; onClose(): void }) {
  const { t } = useTranslation(NS);
  const api = useApi();
  const notify = useNotify();
  const [value, setValue] = useState<Settings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    api.get<Settings>('/transFile/settings', { silent: true }).then(setValue, (e: ApiErrorInfo) => setError(e.msg));
  }, [api]);
  const save = async () => {
    try {
      setValue(await api.put<Settings>('/transFile/settings', value, { silent: true }));
      notify.success(t('saved'));
      onClose();
    } catch (e) {
      setError((e as ApiErrorInfo).msg);
    }
  };
  const field = (key: keyof Settings, label: string) => (
    <FormGroup label={label} labelFor={`setting-${key}`}>
      <NumericInput id={`setting-${key}`} min={1} value={value?.[key] ?? ''} onValueChange={(n) => value && setValue({ ...value, [key]: n })} />
    </FormGroup>
  );
  return (
    <Dialog isOpen={isOpen} onOpening={load} onClose={onClose} title={t('settingsTitle')} canOutsideClickClose={false}>
      <div className={Classes.DIALOG_BODY} data-testid="settings-dialog">
        {field('maxFiles', t('setting.maxFiles'))}
        {field('maxFileMb', t('setting.maxFileMb'))}
        {field('queueLength', t('setting.queueLength'))}
        {field('defaultQuotaMb', t('setting.defaultQuotaMb'))}
        {error && <Callout intent={Intent.DANGER}>{error}</Callout>}
      </div>
      <div className={Classes.DIALOG_FOOTER}>
        <div className={Classes.DIALOG_FOOTER_ACTIONS}>
          <Button text={t('cancel')} onClick={onClose} />
          <Button intent={Intent.PRIMARY} text={t('save')} disabled={!value} onClick={save} />
        </div>
      </div>
    </Dialog>
  );
}

/**
 * /transFile: upload documents and follow them. The list shows each file's state and live progress
 * (pushed as `transFile.changed`); the buttons a row offers are those the SDK's documentFile machine
 * allows in its state. Managers switch to every user's files.
 */
/** Pictures (read by OCR as a whole) have a view of their own. */
const isPicture = (name: string) => /\.(png|jpe?g|webp|tiff?|bmp)$/i.test(name);

export function TransFile() {
  const { t, i18n } = useTranslation(NS);
  const api = useApi();
  const notify = useNotify();
  const permissions = usePermission();
  const { navigate } = usePlatform();
  const setup = useSetup();
  const states = useStates();
  const name = useLanguageName();
  const list = useFileList('/transFile');
  const { all, merge, act, actorOf, setDeleting } = list;
  const upload = useUploadDialog(list.refresh);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [selected, setSelected] = useState<FileRow[]>([]);
  const manager = permissions.hasButton('transFile:manage');

  const columns: PagedColumn<FileRow>[] = useMemo(
    () => [
      ...(all ? [{ key: 'ownerName', title: t('owner') }] : []),
      {
        key: 'name',
        title: t('name'),
        render: (r: FileRow) => (
          <span data-testid={`file-name-${r.id}`}>
            {r.name}
            {r.ocr && (
              <Tooltip content={t('ocrHint')}>
                <Tag minimal intent={Intent.PRIMARY} style={{ marginLeft: 6 }} data-testid={`ocr-${r.id}`}>
                  {t('ocrTag')}
                </Tag>
              </Tooltip>
            )}
          </span>
        ),
      },
      { key: 'createdAt', title: t('uploadTime'), render: (r: FileRow) => formatDate(r.createdAt) },
      { key: 'size', title: t('size'), render: (r: FileRow) => formatSize(r.size) },
      { key: 'direction', title: t('direction'), render: (r: FileRow) => `${name(r.sourceLang)} → ${name(r.targetLang)}` },
      { key: 'bilingual', title: t('bilingual'), render: (r: FileRow) => (r.bilingual ? t(`result.${r.resultType}`) : t('no')) },
      { key: 'characters', title: t('characters'), render: (r: FileRow) => r.characters.toLocaleString(i18n.language) },
      {
        key: 'status',
        title: t('statusColumn'),
        render: (raw: FileRow) => {
          const r = merge(raw);
          return (
            <FileStatus file={r} testId="file-status">
              {r.pdfStatus && r.pdfStatus !== 'notConverted' && <div style={{ marginTop: 2 }}><StatusTag value={r.pdfStatus} states={states.pdf} /></div>}
            </FileStatus>
          );
        },
      },
      { key: 'previewStatus', title: t('previewColumn'), render: (raw: FileRow) => <StatusTag value={merge(raw).previewStatus} states={states.preview} /> },
      {
        key: 'actions',
        title: t('actions'),
        render: (raw: FileRow) => {
          const r = merge(raw);
          const allowed = actionsFrom(documentFile, r.status, actorOf(r));
          return (
            <ButtonGroup minimal>
              {allowed.includes('preview') && (
                <>
                  <Tooltip content={t('previewSideBySide')}>
                    <Button icon="comparison" data-testid={`preview-${r.id}`} aria-label={t('previewSideBySide')} onClick={() => navigate(`/fileView?id=${r.id}`)} />
                  </Tooltip>
                  <Tooltip content={t('previewRendered')}>
                    <Button icon="document-open" data-testid={`rendered-${r.id}`} aria-label={t('previewRendered')} onClick={() => navigate(`/fileView2?id=${r.id}`)} />
                  </Tooltip>
                  {r.ocr && (
                    // A picture opens in the picture view (original and translated picture); a scanned PDF in the OCR view.
                    <Tooltip content={isPicture(r.name) ? t('previewPicture') : t('previewOcr')}>
                      <Button
                        icon="eye-open"
                        data-testid={`ocr-view-${r.id}`}
                        aria-label={isPicture(r.name) ? t('previewPicture') : t('previewOcr')}
                        onClick={() => navigate(isPicture(r.name) ? `/fileViewPic?id=${r.id}` : `/fileViewOCR?id=${r.id}`)}
                      />
                    </Tooltip>
                  )}
                </>
              )}
              {allowed.includes('terminate') && (
                <Tooltip content={t('terminate')}>
                  <Button icon="stop" intent={Intent.WARNING} data-testid={`terminate-${r.id}`} aria-label={t('terminate')} onClick={() => act(r, 'terminate')} />
                </Tooltip>
              )}
              {allowed.includes('submit') && (
                <Tooltip content={t('retry')}>
                  <Button icon="refresh" data-testid={`retry-${r.id}`} aria-label={t('retry')} onClick={() => act(r, 'retry')} />
                </Tooltip>
              )}
              {allowed.includes('download') && (
                <>
                  <Tooltip content={t('download')}>
                    <Button icon="download" intent={Intent.PRIMARY} data-testid={`download-${r.id}`} aria-label={t('download')} onClick={() => void download(api, `/transFile/download/${r.id}`, r.resultName ?? r.name).catch((e: ApiErrorInfo) => notify.error(e.msg))} />
                  </Tooltip>
                  {/* The units as XLIFF, for any CAT tool: source, target, state, notes and inline codes. */}
                  <Popover
                    placement="bottom-end"
                    content={
                      <Menu>
                        {(['xliff12', 'xliff21'] as const).map((kind) => (
                          <MenuItem
                            key={kind}
                            text={t(kind === 'xliff12' ? 'downloadXliff12' : 'downloadXliff21')}
                            data-testid={`download-${kind}-${r.id}`}
                            onClick={() => void download(api, `/transFile/download/${r.id}?kind=${kind}`, `${r.name.replace(/\.[^.]+$/, '')}_${r.sourceLang}_${r.targetLang}${kind === 'xliff21' ? '.xliff2' : ''}.xlf`).catch((e: ApiErrorInfo) => notify.error(e.msg))}
                          />
                        ))}
                      </Menu>
                    }
                  >
                    <Tooltip content={t('downloadXliff')}>
                      <Button icon="translate" data-testid={`download-xliff-${r.id}`} aria-label={t('downloadXliff')} />
                    </Tooltip>
                  </Popover>
                  {r.pdfStatus === 'converted' && (
                    <Tooltip content={t('downloadPdf')}>
                      <Button icon="document" data-testid={`download-pdf-${r.id}`} aria-label={t('downloadPdf')} onClick={() => void download(api, `/transFile/download/${r.id}?kind=pdf`, `${(r.resultName ?? r.name).replace(/\.[^.]+$/, '')}.pdf`).catch((e: ApiErrorInfo) => notify.error(e.msg))} />
                    </Tooltip>
                  )}
                </>
              )}
              <Tooltip content={t('delete')}>
                <Button icon="trash" intent={Intent.DANGER} data-testid={`delete-${r.id}`} aria-label={t('delete')} onClick={() => setDeleting([r])} />
              </Tooltip>
            </ButtonGroup>
          );
        },
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [all, t, i18n.language, merge, states, name],
  );

  if (setup.state === 'failed') return <Callout intent={Intent.DANGER} style={{ margin: 16 }}>{t('loadFailed', { msg: setup.msg })}</Callout>;

  const statusOptions = documentFile.states.map((s) => ({ value: s, label: t(`status.${s}`) }));
  return (
    <div data-testid="trans-file" style={{ padding: 16, display: 'grid', gap: 12 }}>
      <PageHeader title={t('heading')} subtitle={all && <Tag intent={Intent.PRIMARY}>{t('allUsers')}</Tag>} />
      <SearchBar
        fields={[
          { name: 'name', label: t('name') },
          { name: 'status', label: t('statusColumn'), type: 'select', options: statusOptions },
        ]}
        onSearch={list.setFilters}
        actions={
          <>
            <Button intent={Intent.PRIMARY} icon="upload" data-testid="open-upload" text={t('upload')} disabled={setup.state !== 'ready'} onClick={upload.open} />
            {selected.length > 0 && <Button icon="trash" intent={Intent.DANGER} data-testid="delete-selected" text={t('deleteSelected', { n: selected.length })} onClick={() => setDeleting(selected)} />}
            {manager && <Switch inline data-testid="all-users" checked={all} label={t('allUsers')} onChange={() => list.setAll(!all)} style={{ marginBottom: 0, marginLeft: 8 }} />}
            {manager && <Button icon="cog" minimal data-testid="open-settings" text={t('settingsTitle')} onClick={() => setSettingsOpen(true)} />}
          </>
        }
      />
      <PagedTable<FileRow>
        testId="file"
        columns={columns}
        rowKey={(r) => r.id}
        load={list.load}
        reloadKey={list.reloadKey}
        refreshKey={list.refreshKey}
        selectable
        onSelectionChange={(_, rows) => setSelected(rows)}
        emptyText={t('empty')}
      />
      {setup.state === 'ready' && <UploadDialog {...upload.props} setup={setup.value} />}
      <DeleteFilesDialog
        base="/transFile"
        files={list.deleting}
        onDeleted={() => {
          setDeleting(null);
          setSelected([]);
          list.refresh();
        }}
        onClose={() => setDeleting(null)}
      />
      {manager && <SettingsDialog isOpen={settingsOpen} onClose={() => setSettingsOpen(false)} />}
    </div>
  );
}
