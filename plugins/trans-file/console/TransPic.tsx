import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, ButtonGroup, Callout, Classes, Dialog, FormGroup, Intent, NumericInput, Switch, Tag, Tooltip } from '@blueprintjs/core';
import { PageHeader, PagedTable, SearchBar, useApi, useNotify, usePermission, usePlatform, useTranslation, type ApiErrorInfo, type PagedColumn } from '@linguaport/sdk/console';
import { actionsFrom, documentFile, formatDate, formatSize } from '@linguaport/sdk/shared';
import type { FileRow } from '../shared/schemas.js';
import { DeleteFilesDialog, download, FileStatus, NS, useFileList, useLanguageName, type Load } from './common.js';
import { FileUploadDialog, useUploadDialog, type UploadDialogProps } from './FileUploadDialog.js';

export interface PicSetup {
  languages: Array<{ code: string; targets: string[] }>;
  defaultSource: string | null;
  defaultTarget: string | null;
  limits: { maxFiles: number; pictureMaxMb: number; pictureMaxMegapixels: number };
  formats: Array<{ id: string; name: string; extensions: string[] }>;
}

interface PicLimits {
  pictureMaxMb: number;
  pictureMaxMegapixels: number;
}

function usePicSetup(): Load<PicSetup> {
  const api = useApi();
  const [setup, setSetup] = useState<Load<PicSetup>>({ state: 'loading' });
  useEffect(() => {
    api.get<PicSetup>('/transPic/setup', { silent: true }).then(
      (value) => setSetup({ state: 'ready', value }),
      (err: ApiErrorInfo) => setSetup({ state: 'failed', msg: err.msg }),
    );
  }, [api]);
  return setup;
}

/** The picture upload: the shared flow with the picture limits. */
export function PicUploadDialog(props: UploadDialogProps<PicSetup>) {
  const { t } = useTranslation(NS);
  const { setup } = props;
  return (
    <FileUploadDialog
      {...props}
      pairArea="pictures"
      url="/transPic/upload"
      title={t('pic.uploadTitle')}
      startText={(count) => t('pic.start', { count })}
      width={620}
      testIdPrefix="pic-"
      idPrefix="pic"
      maxFileMb={setup.limits.pictureMaxMb}
      refuseKeys={{ tooLarge: 'pic.refuseSize', notSupported: 'pic.refuseType' }}
      dropPrompt={t('pic.dropHere')}
      dropHint={
        <div style={{ fontSize: 12, color: '#5f6b7c', marginTop: 4 }}>
          {t('pic.limits', { files: setup.limits.maxFiles, mb: setup.limits.pictureMaxMb, mp: setup.limits.pictureMaxMegapixels, types: setup.formats.flatMap((f) => f.extensions).join(', ') })}
        </div>
      }
      notes={setup.formats.length === 0 && <Callout intent={Intent.WARNING}>{t('pic.noFormats')}</Callout>}
    />
  );
}

/** The picture limits (managers). */
function PicSettingsDialog({ isOpen, onClose }: { isOpen: boolean; onClose(): void }) {
  const { t } = useTranslation(NS);
  const api = useApi();
  const notify = useNotify();
  const [value, setValue] = useState<PicLimits | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    setError(null);
    api.get<PicLimits>('/transPic/settings', { silent: true }).then(setValue, (e: ApiErrorInfo) => setError(e.msg));
  }, [api]);
  const save = async () => {
    try {
      setValue(await api.put<PicLimits>('/transPic/settings', value, { silent: true }));
      notify.success(t('saved'));
      onClose();
    } catch (e) {
      setError((e as ApiErrorInfo).msg);
    }
  };
  return (
    <Dialog isOpen={isOpen} onOpening={load} onClose={onClose} title={t('pic.settingsTitle')} canOutsideClickClose={false}>
      <div className={Classes.DIALOG_BODY} data-testid="pic-settings-dialog">
        <FormGroup label={t('pic.maxMb')} labelFor="pic-max-mb">
          <NumericInput id="pic-max-mb" min={1} max={200} value={value?.pictureMaxMb ?? ''} onValueChange={(n) => value && setValue({ ...value, pictureMaxMb: n })} />
        </FormGroup>
        <FormGroup label={t('pic.maxMegapixels')} labelFor="pic-max-mp">
          <NumericInput id="pic-max-mp" min={0.1} max={100} stepSize={1} minorStepSize={0.1} value={value?.pictureMaxMegapixels ?? ''} onValueChange={(n) => value && setValue({ ...value, pictureMaxMegapixels: n })} />
        </FormGroup>
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
 * /transPic: upload pictures (several at once) and follow them through the document queue, with the
 * same states and live progress as documents; a completed picture opens in /fileViewPic, downloads as
 * the translated picture or as the recognised and translated text.
 */
export function TransPic() {
  const { t, i18n } = useTranslation(NS);
  const api = useApi();
  const notify = useNotify();
  const permissions = usePermission();
  const { navigate } = usePlatform();
  const setup = usePicSetup();
  const name = useLanguageName();
  const list = useFileList('/transPic');
  const { all, merge, act, actorOf, setDeleting } = list;
  const upload = useUploadDialog(list.refresh);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const manager = permissions.hasButton('transFile:manage');

  const save = (url: string, fileName: string) => void download(api, url, fileName).catch((e: ApiErrorInfo) => notify.error(e.msg));

  const columns: PagedColumn<FileRow>[] = useMemo(
    () => [
      ...(all ? [{ key: 'ownerName', title: t('owner') }] : []),
      { key: 'name', title: t('name'), render: (r: FileRow) => <span data-testid={`pic-name-${r.id}`}>{r.name}</span> },
      { key: 'createdAt', title: t('uploadTime'), render: (r: FileRow) => formatDate(r.createdAt) },
      { key: 'size', title: t('size'), render: (r: FileRow) => formatSize(r.size) },
      { key: 'direction', title: t('direction'), render: (r: FileRow) => `${name(r.sourceLang)} → ${name(r.targetLang)}` },
      { key: 'segments', title: t('pic.blocks'), render: (r: FileRow) => merge(r).segments.toLocaleString(i18n.language) },
      {
        key: 'status',
        title: t('statusColumn'),
        render: (raw: FileRow) => <FileStatus file={merge(raw)} testId="pic-status" />,
      },
      {
        key: 'actions',
        title: t('actions'),
        render: (raw: FileRow) => {
          const r = merge(raw);
          const allowed = actionsFrom(documentFile, r.status, actorOf(r));
          const base = r.name.replace(/\.[^.]+$/, '');
          return (
            <ButtonGroup minimal>
              {allowed.includes('preview') && (
                <Tooltip content={t('pic.view')}>
                  <Button icon="media" data-testid={`pic-view-${r.id}`} aria-label={t('pic.view')} onClick={() => navigate(`/fileViewPic?id=${r.id}`)} />
                </Tooltip>
              )}
              {allowed.includes('terminate') && (
                <Tooltip content={t('terminate')}>
                  <Button icon="stop" intent={Intent.WARNING} data-testid={`pic-terminate-${r.id}`} aria-label={t('terminate')} onClick={() => act(r, 'terminate')} />
                </Tooltip>
              )}
              {allowed.includes('submit') && (
                <Tooltip content={t('retry')}>
                  <Button icon="refresh" data-testid={`pic-retry-${r.id}`} aria-label={t('retry')} onClick={() => act(r, 'retry')} />
                </Tooltip>
              )}
              {allowed.includes('download') && (
                <>
                  <Tooltip content={t('pic.downloadPicture')}>
                    <Button icon="download" intent={Intent.PRIMARY} data-testid={`pic-download-${r.id}`} aria-label={t('pic.downloadPicture')} onClick={() => save(`/transPic/download/${r.id}`, r.resultName ?? r.name)} />
                  </Tooltip>
                  <Tooltip content={t('pic.downloadText')}>
                    <Button icon="document" data-testid={`pic-download-text-${r.id}`} aria-label={t('pic.downloadText')} onClick={() => save(`/transPic/download/${r.id}?kind=text`, `${base}_${r.sourceLang}_${r.targetLang}.txt`)} />
                  </Tooltip>
                </>
              )}
              <Tooltip content={t('delete')}>
                <Button icon="trash" intent={Intent.DANGER} data-testid={`pic-delete-${r.id}`} aria-label={t('delete')} onClick={() => setDeleting([r])} />
              </Tooltip>
            </ButtonGroup>
          );
        },
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [all, t, i18n.language, merge, name],
  );

  if (setup.state === 'failed') return <Callout intent={Intent.DANGER} style={{ margin: 16 }}>{t('loadFailed', { msg: setup.msg })}</Callout>;

  return (
    <div data-testid="trans-pic" style={{ padding: 16, display: 'grid', gap: 12 }}>
      <PageHeader title={t('pic.heading')} subtitle={all && <Tag intent={Intent.PRIMARY}>{t('allUsers')}</Tag>} />
      <SearchBar
        fields={[{ name: 'name', label: t('name') }]}
        onSearch={list.setFilters}
        actions={
          <>
            <Button intent={Intent.PRIMARY} icon="upload" data-testid="pic-open-upload" text={t('pic.upload')} disabled={setup.state !== 'ready'} onClick={upload.open} />
            {manager && <Switch inline data-testid="pic-all-users" checked={all} label={t('allUsers')} onChange={() => list.setAll(!all)} style={{ marginBottom: 0, marginLeft: 8 }} />}
            {manager && <Button icon="cog" minimal data-testid="pic-open-settings" text={t('pic.settingsTitle')} onClick={() => setSettingsOpen(true)} />}
          </>
        }
      />
      <PagedTable<FileRow> testId="pic" columns={columns} rowKey={(r) => r.id} load={list.load} reloadKey={list.reloadKey} refreshKey={list.refreshKey} emptyText={t('pic.empty')} />
      {setup.state === 'ready' && <PicUploadDialog {...upload.props} setup={setup.value} />}
      <DeleteFilesDialog
        base="/transPic"
        files={list.deleting}
        onDeleted={() => {
          setDeleting(null);
          list.refresh();
        }}
        onClose={() => setDeleting(null)}
      />
      {manager && <PicSettingsDialog isOpen={settingsOpen} onClose={() => setSettingsOpen(false)} />}
    </div>
  );
}
