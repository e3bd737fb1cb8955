import type { ComponentType } from 'react';
import {
  Application, Book, Cog, Dashboard, Database, Document, FolderClose, Globe, Home, Media, MobilePhone, Office, People, Person,
  Projects, Search, Shield, Translate, Archive, Chat, Edit, History, Key, Layers, List, Lock, Notifications, Pulse, Tag,
} from '@blueprintjs/icons';

/**
 * The menu icons by Blueprint name. Only these are bundled (not every Blueprint icon); an icon
 * name outside the map falls back to `application`.
 */
const ICONS: Record<string, ComponentType<{ size?: number; className?: string }>> = {
  application: Application, archive: Archive, book: Book, chat: Chat, cog: Cog, dashboard: Dashboard,
  database: Database, document: Document, edit: Edit, folder: FolderClose, "folder-close": FolderClose, globe: Globe, history: History, home: Home,
  key: Key, layers: Layers, list: List, lock: Lock, media: Media, "mobile-phone": MobilePhone, notifications: Notifications,
  office: Office, people: People, person: Person, projects: Projects, pulse: Pulse, search: Search, shield: Shield,
  tag: Tag, translate: Translate,
};

export function MenuIcon({ name }: { name?: string | null }) {
  const Icon = (name && ICONS[name]) || Application;
  return <Icon size={16} className="lp-menu-icon" />;
}
