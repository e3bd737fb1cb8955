import { useEffect, useState } from 'react';
import { Checkbox, FormGroup, HTMLSelect, Radio, RadioGroup } from '@blueprintjs/core';
import { useApi, useTranslation } from '@linguaport/sdk/console';
import { EXISTING_TARGETS, RESULT_TYPES, type ExistingTargets, type ResultType } from '../shared/schemas.js';
import { NS, type Setup } from './common.js';
import { FileUploadDialog, type UploadDialogProps } from './FileUploadDialog.js';

/** The document upload: the shared flow plus the domain, result type, existing targets and PDF option. */
export function UploadDialog(props: UploadDialogProps<Setup>) {
  const { isOpen, setup } = props;
  const { t, i18n } = useTranslation(NS);
  const api = useApi();
  const [domain, setDomain] = useState('');
  const [domains, setDomains] = useState<Array<{ code: string; nameZh: string; nameEn: string }>>([]);
  const [resultType, setResultType] = useState<ResultType>('translated');
  const [withPdf, setWithPdf] = useState(false);
  const [existingTargets, setExistingTargets] = useState<ExistingTargets>('keepUsable');

  useEffect(() => {
    if (!isOpen) return;
    api.get<Array<{ code: string; nameZh: string; nameEn: string }>>('/domain/list', { silent: true }).then(setDomains, () => setDomains([]));
  }, [api, isOpen]);

  const hint = { fontSize: 12, color: '#5f6b7c', marginTop: 4 };
  return (
    <FileUploadDialog
      {...props}
      pairArea="documents"
      url="/transFile/upload"
      title={t('uploadTitle')}
      startText={(count) => t('startTranslation', { count })}
      width={680}
      testIdPrefix=""
      idPrefix="tf"
      maxFileMb={setup.limits.maxFileMb}
      refuseKeys={{ tooLarge: 'refuse.tooLarge', notSupported: 'refuse.notSupported' }}
      dropPrompt={t('dropHere')}
      dropHint={
        <>
          <div style={hint}>{t('limits', { files: setup.limits.maxFiles, mb: setup.limits.maxFileMb, formats: setup.formats.flatMap((f) => f.extensions).join(', ') })}</div>
          {setup.formats.some((f) => f.extensions.includes('pdf')) && <div data-testid="pdf-result-note" style={hint}>{t('pdfResult')}</div>}
        </>
      }
      languageFields={
        <FormGroup label={t('domain')} labelFor="tf-domain">
          <HTMLSelect id="tf-domain" data-testid="domain" value={domain} onChange={(e) => setDomain(e.currentTarget.value)}>
            <option value="">{t('anyDomain')}</option>
            {domains.map((d) => (
              <option key={d.code} value={d.code}>{i18n.language === 'zh-CN' ? d.nameZh : d.nameEn}</option>
            ))}
          </HTMLSelect>
        </FormGroup>
      }
      fill={(form) => {
        if (domain) form.set('domain', domain);
        form.set('resultType', resultType);
        form.set('withPdf', String(withPdf));
        form.set('existingTargets', existingTargets);
      }}
    >
      <RadioGroup label={t('resultType')} inline selectedValue={resultType} onChange={(e) => setResultType(e.currentTarget.value as ResultType)}>
        {RESULT_TYPES.map((r) => (
          <Radio key={r} value={r} label={t(`result.${r}`)} data-testid={`result-${r}`} />
        ))}
      </RadioGroup>
      <FormGroup label={t('existingTargets')} helperText={t('existingTargetsHelp')}>
        <HTMLSelect value={existingTargets} data-testid="existing-targets" onChange={(e) => setExistingTargets(e.currentTarget.value as ExistingTargets)}>
          {EXISTING_TARGETS.map((o) => (
            <option key={o} value={o}>{t(`existing.${o}`)}</option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <Checkbox checked={withPdf} label={t('withPdf')} data-testid="with-pdf" onChange={() => setWithPdf(!withPdf)} />
    </FileUploadDialog>
  );
}
