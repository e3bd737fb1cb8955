import { Button, Menu, MenuItem, ContextMenu } from '@blueprintjs/core';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { VisitedView } from './tags.js';

interface Props {
  views: VisitedView[];
  activePath: string;
  onClose(path: string): void;
  onRefresh(view: VisitedView): void;
  onCloseOthers(view: VisitedView): void;
  onCloseAll(): void;
}

/** The tab bar of visited pages: right-click for refresh, close others, close all; affix tabs have no close. */
export function TagsView({ views, activePath, onClose, onRefresh, onCloseOthers, onCloseAll }: Props) {
  const { t } = useTranslation('core');
  return (
    <div className="lp-tags" data-testid="tags-view">
      {views.map((v) => (
        <ContextMenu
          key={v.path}
          content={
            <Menu data-testid="tags-menu">
              <MenuItem icon="refresh" text={t('tags.refresh')} onClick={() => onRefresh(v)} data-testid="tags-refresh" />
              <MenuItem icon="cross" text={t('tags.closeOthers')} onClick={() => onCloseOthers(v)} data-testid="tags-close-others" />
              <MenuItem icon="disable" text={t('tags.closeAll')} onClick={onCloseAll} data-testid="tags-close-all" />
            </Menu>
          }
        >
          <span className={`lp-tag${v.path === activePath ? ' lp-tag-active' : ''}`} data-testid="tag" data-path={v.path} data-affix={v.meta.affix || undefined}>
            <Link to={v.fullPath}>{v.title}</Link>
            {v.meta.affix ? null : (
              <Button size="small" variant="minimal" icon="small-cross" aria-label={t('tags.close')} onClick={() => onClose(v.path)} data-testid="tag-close" />
            )}
          </span>
        </ContextMenu>
      ))}
    </div>
  );
}
