import type { ComponentType } from 'react';
import { Icon } from '@blueprintjs/core';
import {
  Application, Book, Cog, Dashboard, Database, Document, FolderClose, Globe, Home, Media, MobilePhone, Office, People, Person,
  Projects, Search, Shield, Translate, Archive, Chat, Edit, History, Key, Layers, List, Lock, Notifications, Pulse, Tag,
  IconNames, type IconName,
} from '@blueprintjs/icons';

/**
 * The menu icons by Blueprint name. The common ones are bundled; any other Blueprint icon picked in
 * `/limit` is drawn by Blueprint's own loader, which fetches the 16 px paths chunk on first use
 * (kept out of the login page). A name that is no Blueprint icon falls back to `application`.
 */
const ICONS: Record<string, ComponentType<{ size?: number; className?: string }>> = {
  application: Application, archive: Archive, book: Book, chat: Chat, cog: Cog, dashboard: Dashboard,
  database: Database, document: Document, edit: Edit, folder: FolderClose, "folder-close": FolderClose, globe: Globe, history: History, home: Home,
  key: Key, layers: Layers, list: List, lock: Lock, media: Media, "mobile-phone": MobilePhone, notifications: Notifications,
  office: Office, people: People, person: Person, projects: Projects, pulse: Pulse, search: Search, shield: Shield,
  tag: Tag, translate: Translate,
};

let blueprintNames: Set<string> | undefined;
const isBlueprintIcon = (name: string) => (blueprintNames ??= new Set<string>(Object.values(IconNames))).has(name);

export function MenuIcon({ name }: { name?: string | null }) {
  const Bundled = name ? ICONS[name] : undefined;
  if (Bundled) return <Bundled size={16} className="lp-menu-icon" />;
  if (name && isBlueprintIcon(name)) return <Icon icon={name as IconName} size={16} className="lp-menu-icon" />;
  return <Application size={16} className="lp-menu-icon" />;
}
