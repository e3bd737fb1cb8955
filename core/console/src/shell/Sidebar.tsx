import { Link } from 'react-router-dom';
import type { MenuEntry } from '../auth/types.js';
import { menuTarget } from '../auth/permissions.js';
import { MenuIcon } from './icons.js';

interface Props {
  tree: readonly MenuEntry[];
  /** Paths to highlight: the current menu path, or a detail page's parent. */
  activePath: string;
  collapsed: boolean;
  /** Mobile layout: the sidebar floats over the content and hides when collapsed. */
  mobile?: boolean;
  /** The settings panel's "sidebar logo": logo and site title, linking to the first role's path. */
  logo?: { src: string | null; title: string; home: string } | null;
}

function Entry({ entry, activePath, depth }: { entry: MenuEntry; activePath: string; depth: number }) {
  const children = entry.children ?? [];
  if (children.length) {
    return (
      <li className="lp-menu-group">
        <div className="lp-menu-title" style={{ paddingLeft: 12 + depth * 14 }}>
          <MenuIcon name={entry.icon} />
          <span className="lp-menu-label">{entry.permissionName}</span>
        </div>
        <ul>{children.map((c) => <Entry key={c.id ?? c.path} entry={c} activePath={activePath} depth={depth + 1} />)}</ul>
      </li>
    );
  }
  const target = menuTarget(entry);
  const active = entry.path === activePath;
  return (
    <li>
      {/* Link, not NavLink: the highlight follows activePath (a detail page lights its parent). */}
      <Link
        to={target}
        className={`lp-menu-item${active ? ' lp-active' : ''}`}
        aria-current={active ? 'page' : undefined}
        style={{ paddingLeft: 12 + depth * 14 }}
        title={entry.permissionName}
      >
        <MenuIcon name={entry.icon} />
        <span className="lp-menu-label">{entry.permissionName}</span>
      </Link>
    </li>
  );
}

export function Sidebar({ tree, activePath, collapsed, mobile, logo }: Props) {
  return (
    <nav className={`lp-sidebar${collapsed ? ' lp-collapsed' : ''}${mobile ? ' lp-mobile' : ''}`} data-testid="sidebar" data-collapsed={collapsed ? 'true' : 'false'}>
      {logo ? (
        <Link to={logo.home} className="lp-sidebar-logo" data-testid="sidebar-logo">
          {logo.src ? <img src={logo.src} alt="" /> : null}
          <span className="lp-menu-label">{logo.title}</span>
        </Link>
      ) : null}
      <ul className="lp-menu">{tree.map((e) => <Entry key={e.id ?? e.path} entry={e} activePath={activePath} depth={0} />)}</ul>
    </nav>
  );
}
