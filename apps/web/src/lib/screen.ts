import { createContext, useContext, type ComponentType, type LazyExoticComponent } from 'react';

/** Who may open a screen. `guest` pages send signed-in users to the console. */
export type Access = 'public' | 'guest' | 'user' | 'admin' | 'root';
export type MenuGroupId = 'dashboard' | 'setting' | 'billing' | 'usage';

export interface ScreenMenu {
  group: MenuGroupId;
  /** A collapsible entry of the group (`operation`, `paySetting`) holding this item. */
  parent?: string;
  /** Position inside the group or collapse (ascending). */
  order: number;
  icon?: ComponentType;
  /** A plain link instead of a console route (`external`), optionally in a new tab. */
  url?: string;
  external?: boolean;
  target?: '_blank';
  /** A site-info switch (`/api/status`) that must be on for the item to show. */
  siteFlag?: 'UserInvoiceMonth' | 'UptimeEnabled';
}

/** What a feature's `screen.ts` declares; the app builds routes and the sidebar from these. */
export interface Screen {
  id: string;
  /** Absolute route path (`/panel/token`, `/login`). */
  path: string;
  layout: 'public' | 'panel';
  access: Access;
  /** i18n key of the title (common namespace); defaults to `menu.<id>`. */
  title?: string;
  menu?: ScreenMenu;
  page: LazyExoticComponent<ComponentType>;
}

export const defineScreens = (...screens: Screen[]): Screen[] => screens;

export const ScreenContext = createContext<Screen | null>(null);
/** The screen being shown (placeholders use it for their title). */
export const useScreen = () => useContext(ScreenContext);
